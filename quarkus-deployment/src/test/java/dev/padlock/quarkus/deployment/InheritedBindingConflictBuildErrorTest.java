package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import io.quarkus.arc.Unremovable;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A method inherited by two beans whose class-level @Locked differ has no single binding: the build says so.
 * Two bindings that differ only in spelling out a default are the same binding and pass.
 */
class InheritedBindingConflictBuildErrorTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar ->
                    jar.addClasses(Base.class, Left.class, Right.class, SameBase.class, Implicit.class, Explicit.class))
            .assertException(e -> {
                String all = e.toString();
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                    all += "\n" + c;
                }
                assertThat(all)
                        .contains("Padlock found 1 problem(s)")
                        .contains("Invalid @Locked on " + Base.class.getName() + "#work(): the method is inherited"
                                + " by beans whose class-level @Locked differ (")
                        .contains("Override the method in the subclass and annotate it there.")
                        .doesNotContain(SameBase.class.getName() + "#work()");
            });

    public static class Base {
        public void work() {}
    }

    @ApplicationScoped
    @Unremovable
    @Locked("left")
    public static class Left extends Base {}

    @ApplicationScoped
    @Unremovable
    @Locked("right")
    public static class Right extends Base {}

    public static class SameBase {
        public void work() {}
    }

    @ApplicationScoped
    @Unremovable
    @Locked("same")
    public static class Implicit extends SameBase {}

    @ApplicationScoped
    @Unremovable
    @Locked(value = "same", type = LockType.REENTRANT, waitTime = "")
    public static class Explicit extends SameBase {}

    @Test
    void theBuildFails() {
        // assertException above checks the message; reaching here means the build failed as expected
    }
}
