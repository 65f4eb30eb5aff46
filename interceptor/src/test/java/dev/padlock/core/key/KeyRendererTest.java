package dev.padlock.core.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockException;
import dev.padlock.Locked;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.shape.ReflectedShapes;
import java.lang.reflect.Method;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyRendererTest {

    record Customer(String id) {}

    public static class Order {
        public final Customer customer;
        private final int number;

        Order(Customer customer, int number) {
            this.customer = customer;
            this.number = number;
        }

        public int getNumber() {
            return number;
        }
    }

    static class Shop {
        @Locked(value = "stock", key = "{sku}")
        void reserve(String sku, int qty) {}

        @Locked(
                value = "order",
                key = {"{order.customer.id}", "n{order.number}"})
        void ship(Order order) {}

        @Locked(
                value = "transfer",
                key = {"{1}", "{0}", "{1}"})
        void transfer(String from, String to) {}

        @Locked("nightly")
        void report() {}
    }

    private static String[] render(String method, Object... args) throws Exception {
        Method m = null;
        for (Method candidate : Shop.class.getDeclaredMethods()) {
            if (candidate.getName().equals(method)) {
                m = candidate;
            }
        }
        LockedMethodValidator validator = new LockedMethodValidator(
                GlobalDefaults.read(ConfigView.of(Map.of()), new Problems()), ConfigView.of(Map.of()));
        LockedMethodValidator.Result result =
                validator.validate(ReflectedShapes.of(m), LockedSpec.of(m.getAnnotation(Locked.class)));
        assertThat(result.problems()).isEmpty();
        LockPlan plan = result.plan();
        return KeyRenderer.of(plan.method(), plan.redisBase(), plan.keys(), m).render(args);
    }

    @Test
    void rendersParameterByNameAfterPrefixAndName() throws Exception {
        assertThat(render("reserve", "A-42", 1)).containsExactly("padlock:stock:A-42");
    }

    @Test
    void followsRecordComponentsPublicFieldsAndGetters() throws Exception {
        assertThat(render("ship", new Order(new Customer("c7"), 3)))
                .containsExactly("padlock:order:c7", "padlock:order:n3");
    }

    @Test
    void multipleKeysComeSortedAndDistinct() throws Exception {
        assertThat(render("transfer", "b", "a")).containsExactly("padlock:transfer:a", "padlock:transfer:b");
        assertThat(render("transfer", "same", "same")).containsExactly("padlock:transfer:same");
    }

    @Test
    void noTemplateMeansOneLockForTheMethod() throws Exception {
        assertThat(render("report")).containsExactly("padlock:nightly");
    }

    @Test
    void bracesInUserValuesNeverReachTheKeyAndEscapingKeepsValuesApart() throws Exception {
        String braces = render("reserve", "{x}", 1)[0];
        String escapedLookalike = render("reserve", "%7Bx%7D", 1)[0];
        assertThat(braces).isEqualTo("padlock:stock:%7Bx%7D").doesNotContain("{", "}");
        assertThat(escapedLookalike).isNotEqualTo(braces);
    }

    @Test
    void longValuesAreShortenedDeterministically() throws Exception {
        String longSku = "x".repeat(1000);
        String key = render("reserve", longSku, 1)[0];
        assertThat(key.length()).isLessThan(200);
        assertThat(render("reserve", longSku, 1)[0]).isEqualTo(key);
        assertThat(render("reserve", longSku + "y", 1)[0]).isNotEqualTo(key);
    }

    @Test
    void aNullAlongThePathNamesTemplateMethodAndSegment() {
        assertThatThrownBy(() -> render("ship", new Order(null, 1)))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("{order.customer.id}")
                .hasMessageContaining("Shop#ship(Order)")
                .hasMessageContaining("order.customer is null")
                .hasMessageContaining("did not run");
        assertThatThrownBy(() -> render("reserve", null, 1)).hasMessageContaining("sku is null");
    }
}
