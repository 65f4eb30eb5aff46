package dev.padlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

/** A class-level binding applies to every business method; a method-level one wins; a subclass inherits it. */
public abstract class BindingsContract extends Scenario {

    public static final ApplicationUnderTest APPLICATION = ApplicationUnderTest.of(Reports.class, Inherits.class);

    @ApplicationScoped
    @Locked("whole-class")
    public static class Reports {
        @Inject
        RedissonClient redisson;

        public List<String> daily() {
            return heldKeys(redisson);
        }

        @Locked("own")
        public List<String> special() {
            return heldKeys(redisson);
        }

        /** The keys Padlock holds while the method runs (static: a container may intercept calls to itself). */
        public static List<String> heldKeys(RedissonClient redisson) {
            return StreamSupport.stream(
                            redisson.getKeys().getKeysByPattern("padlock:*").spliterator(), false)
                    .toList();
        }
    }

    /** Only of its own type, so that {@code Reports} stays one bean. */
    @ApplicationScoped
    @Typed(Inherits.class)
    public static class Inherits extends Reports {
        public List<String> extra() {
            return heldKeys(redisson);
        }
    }

    @Test
    void classLevelAppliesToEveryMethodAndMethodLevelWins() {
        Reports reports = bean(Reports.class);
        assertThat(reports.daily()).containsExactly("padlock:whole-class");
        assertThat(reports.special()).containsExactly("padlock:own");
        assertThat(padlockKeys()).isEmpty();
    }

    @Test
    void aSubclassInheritsTheClassLevelBinding() {
        assertThat(bean(Inherits.class).extra()).containsExactly("padlock:whole-class");
    }
}
