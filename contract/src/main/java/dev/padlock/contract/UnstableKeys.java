package dev.padlock.contract;

import dev.padlock.Locked;
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

/**
 * A key rendered from a value whose toString() is an identity hash, an array, a time-zone dependent date or an
 * unordered set gives equal arguments different keys, so no mutual exclusion: the application is refused, every such
 * key at once. Keys from properties, records, enums, value types, ordered collections and classes that inherit a
 * toString() are accepted; so are interfaces, abstract types and {@code Object}, which cannot be judged from the
 * declared type.
 */
public final class UnstableKeys {

    private UnstableKeys() {}

    /** An entity without toString(). */
    public static class Order {
        private final String id;

        public Order(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }
    }

    public static class Line {
        public Order getOrder() {
            return new Order("1");
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
        @Locked(value = "order", key = "{order.id}")
        public void byEntityId(Order order) {}

        @Locked(
                value = "sku",
                key = {"{sku}", "{region}", "{id}", "{at}", "{codes}"})
        public void byValues(Sku sku, Region region, UUID id, Instant at, List<String> codes) {}

        @Locked(
                value = "stable",
                key = {
                    "{order.id}", "{sku}", "{region}", "{id}", "{at}", "{amount}", "{codes}", "{sorted}",
                    "{regions}", "{tagged}", "{subTagged}", "{shape}", "{base}", "{anything}", "{maybe}", "{n}",
                    "{chars}", "{when.time}"
                })
        public void byEveryStableType(
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

    private static final String UNSTABLE = Unstable.class.getName();

    public static final ApplicationUnderTest ACCEPTED = ApplicationUnderTest.of(Stable.class);

    public static final Refusal REFUSAL = Refusal.of(
            ApplicationUnderTest.of(Unstable.class),
            5,
            "Invalid @Locked.key on " + UNSTABLE + "#byEntity(Order): {order} is a " + Order.class.getName()
                    + ", which inherits Object.toString(): an identity hash that differs for every instance, so equal"
                    + " values would not share a lock. Lock on a property such as {order.id}, or give Order a"
                    + " toString() built from the fields that identify it.",
            "Invalid @Locked.key on " + UNSTABLE + "#byPath(Line): {line.order} is a " + Order.class.getName()
                    + ", which inherits Object.toString()",
            "Invalid @Locked.key on " + UNSTABLE + "#byArray(String[]): {ids} is a String[], whose toString() is an"
                    + " identity hash",
            "Invalid @Locked.key on " + UNSTABLE + "#byDate(Date): {when} is a java.util.Date, whose toString()"
                    + " depends on the JVM's time zone",
            "Invalid @Locked.key on " + UNSTABLE + "#bySet(Set): {skus} is a java.util.Set, whose toString() lists"
                    + " its elements in iteration order");
}
