package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Date;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Keys rendered from identity hashes, arrays, dates and unordered sets fail the build, judged from the index (and
 * the JDK's classes through the class loader), worded as on the portable extension; records, enums, value types
 * and classes that inherit a toString() pass.
 */
class UnstableKeysBuildErrorTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(
                    Unstable.class,
                    Stable.class,
                    Order.class,
                    Line.class,
                    Sku.class,
                    Region.class,
                    Tagged.class,
                    SubTagged.class,
                    Shape.class,
                    Base.class))
            .assertException(e -> {
                String all = e.toString();
                for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                    all += "\n" + c;
                }
                String bean = Unstable.class.getName();
                assertThat(all)
                        .contains("Padlock found 5 problem(s)")
                        .contains("Invalid @Locked.key on " + bean + "#byEntity(Order): {order} is a "
                                + Order.class.getName() + ", which inherits Object.toString(): an identity hash"
                                + " that differs for every instance, so equal values would not share a lock. Lock on"
                                + " a property such as {order.id}, or give Order a toString() built from the fields"
                                + " that identify it.")
                        .contains("Invalid @Locked.key on " + bean + "#byPath(Line): {line.order} is a "
                                + Order.class.getName() + ", which inherits Object.toString()")
                        .contains("Invalid @Locked.key on " + bean + "#byArray(String[]): {ids} is a String[], whose"
                                + " toString() is an identity hash")
                        .contains("Invalid @Locked.key on " + bean + "#byDate(Date): {when} is a java.util.Date,"
                                + " whose toString() depends on the JVM's time zone")
                        .contains("Invalid @Locked.key on " + bean + "#bySet(Set): {skus} is a java.util.Set, whose"
                                + " toString() lists its elements in iteration order")
                        .doesNotContain(Stable.class.getName());
            });

    /** An entity without toString(). */
    public static class Order {
        public String getId() {
            return "1";
        }
    }

    public static class Line {
        public Order getOrder() {
            return new Order();
        }
    }

    public record Sku(String code) {}

    public enum Region {
        EU
    }

    public static class Tagged {
        @Override
        public String toString() {
            return "tagged";
        }
    }

    public static class SubTagged extends Tagged {}

    public interface Shape {}

    public abstract static class Base {}

    @ApplicationScoped
    public static class Unstable {
        @Locked(value = "order", key = "{order}")
        public void byEntity(Order order) {}

        @Locked(value = "line", key = "{line.order}")
        public void byPath(Line line) {}

        @Locked(value = "batch", key = "{ids}")
        public void byArray(String[] ids) {}

        @Locked(value = "day", key = "{when}")
        public void byDate(Date when) {}

        @Locked(value = "skus", key = "{skus}")
        public void bySet(Set<String> skus) {}
    }

    @ApplicationScoped
    public static class Stable {
        @Locked(
                value = "stable",
                key = {
                    "{order.id}", "{sku}", "{region}", "{id}", "{at}", "{amount}", "{codes}", "{sorted}",
                    "{regions}", "{tagged}", "{subTagged}", "{shape}", "{base}", "{anything}", "{maybe}", "{n}",
                    "{chars}", "{when.time}"
                })
        public void byValues(
                Order order,
                Sku sku,
                Region region,
                UUID id,
                Instant at,
                BigDecimal amount,
                List<String> codes,
                TreeSet<String> sorted,
                EnumSet<Region> regions,
                Tagged tagged,
                SubTagged subTagged,
                Shape shape,
                Base base,
                Object anything,
                Optional<String> maybe,
                int n,
                CharSequence chars,
                Date when) {}
    }

    @Test
    void theBuildFails() {
        // assertException above checks the message; reaching here means the build failed as expected
    }
}
