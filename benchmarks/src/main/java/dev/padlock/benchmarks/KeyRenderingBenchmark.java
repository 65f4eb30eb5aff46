package dev.padlock.benchmarks;

import dev.padlock.Locked;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.key.KeyRenderer;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.shape.ReflectedShapes;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What rendering the lock keys of one call costs on its own, per template shape: the only per-call work
 * Padlock does before Redisson is asked. In {@code dev.padlock.core} because the renderer is internal; it is
 * built exactly as the engine builds it, from a validated plan.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeyRenderingBenchmark {

    public record Customer(String id) {}

    public record Order(Customer customer, long number) {}

    /** The shapes of method a user writes; the bodies never run, only their keys are rendered. */
    public static class Shapes {
        @Locked("nightly-report")
        public void noKey() {}

        @Locked(value = "bench", key = "{thread}")
        public void intParameter(int thread) {}

        @Locked(value = "stock", key = "{sku}")
        public void stringParameter(String sku) {}

        @Locked(value = "order", key = "{order.customer.id}")
        public void propertyPath(Order order) {}

        @Locked(
                value = "transfer",
                key = {"{from}", "{to}"})
        public void twoKeys(String from, String to) {}

        @Locked(value = "stock", key = "eu-{sku}-{qty}")
        public void literalAndTwoPlaceholders(String sku, int qty) {}
    }

    private KeyRenderer noKey;
    private KeyRenderer intParameter;
    private KeyRenderer stringParameter;
    private KeyRenderer propertyPath;
    private KeyRenderer twoKeys;
    private KeyRenderer literalAndTwoPlaceholders;

    private final Object[] none = {};
    private final Object[] thread = {7};
    private final Object[] sku = {"A-4711"};
    private final Object[] order = {new Order(new Customer("c-1234"), 42)};
    private final Object[] transfer = {"acct-0002", "acct-0001"};
    private final Object[] skuAndQty = {"A-4711", 3};

    @Setup
    public void plan() {
        noKey = renderer("noKey");
        intParameter = renderer("intParameter");
        stringParameter = renderer("stringParameter");
        propertyPath = renderer("propertyPath");
        twoKeys = renderer("twoKeys");
        literalAndTwoPlaceholders = renderer("literalAndTwoPlaceholders");
    }

    private static KeyRenderer renderer(String name) {
        for (Method m : Shapes.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                ConfigView config = ConfigView.of(Map.of());
                LockedMethodValidator validator =
                        new LockedMethodValidator(GlobalDefaults.read(config, new Problems()), config);
                LockedMethodValidator.Result result =
                        validator.validate(ReflectedShapes.of(m), LockedSpec.of(m.getAnnotation(Locked.class)));
                if (!result.isValid()) {
                    throw new IllegalStateException(String.join("\n", result.problems()));
                }
                LockPlan plan = result.plan();
                return KeyRenderer.of(plan.method(), plan.redisBase(), plan.keys(), m);
            }
        }
        throw new IllegalArgumentException(name);
    }

    @Benchmark
    public String[] noKey() {
        return noKey.render(none);
    }

    @Benchmark
    public String[] intParameter() {
        return intParameter.render(thread);
    }

    @Benchmark
    public String[] stringParameter() {
        return stringParameter.render(sku);
    }

    @Benchmark
    public String[] propertyPath() {
        return propertyPath.render(order);
    }

    @Benchmark
    public String[] twoKeys() {
        return twoKeys.render(transfer);
    }

    @Benchmark
    public String[] literalAndTwoPlaceholders() {
        return literalAndTwoPlaceholders.render(skuAndQty);
    }
}
