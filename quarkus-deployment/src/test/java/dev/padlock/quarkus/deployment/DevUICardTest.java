package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.core.config.ConfigView;
import dev.padlock.core.config.GlobalDefaults;
import dev.padlock.core.config.Problems;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockedMethodValidator;
import dev.padlock.core.plan.LockedSpec;
import dev.padlock.core.plan.NamedLocks;
import dev.padlock.core.shape.ReflectedShapes;
import dev.padlock.quarkus.runtime.internal.NamedLockPoint;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** What Padlock's Dev UI pages show: the data the build hands the Dev UI, row by row. */
class DevUICardTest {

    static class Shop {
        @Locked(value = "stock", key = "{sku}", waitTime = "250ms", leaseTime = "30s")
        public void reserve(String sku) {}

        @Locked(type = LockType.FENCED, holdAtLeast = "1s")
        public void settle() {}
    }

    @Test
    void listsEveryLockedMethodWithItsResolvedSettingsAndEveryNamedLock() throws Exception {
        CardPageBuildItem card = new PadlockDevUIProcessor()
                .card(
                        List.of(
                                item(Shop.class.getMethod("reserve", String.class)),
                                item(Shop.class.getMethod("settle"))),
                        new NamedLockPointsBuildItem(List.of(
                                new NamedLockPoint("orders", NamedLocks.Kind.LOCK, "field com.acme.Jobs.orders"))));

        assertThat(card.getPages()).hasSize(3);
        assertThat(card.getBuildTimeData().get(PadlockDevUIProcessor.METHODS).getContent())
                .isEqualTo(List.of(
                        row(
                                "method", Shop.class.getName() + "#reserve(String)",
                                "lock", "stock",
                                "keys", "padlock:stock:{sku}",
                                "type", "REENTRANT",
                                "wait", "250ms",
                                "lease", "30s",
                                "on failure", "THROW",
                                "release", "after-transaction",
                                "hold at least", "-",
                                "lock delay", "-",
                                "on lease lost", "warn"),
                        row(
                                "method", Shop.class.getName() + "#settle()",
                                "lock", Shop.class.getName() + "#settle",
                                "keys", "padlock:" + Shop.class.getName() + "#settle",
                                "type", "FENCED",
                                "wait", "5s",
                                "lease", "watchdog",
                                "on failure", "THROW",
                                "release", "after-transaction",
                                "hold at least", "1s",
                                "lock delay", "15s",
                                "on lease lost", "interrupt")));
        assertThat(card.getBuildTimeData()
                        .get(PadlockDevUIProcessor.NAMED_LOCKS)
                        .getContent())
                .isEqualTo(List.of(
                        Map.of("name", "orders", "bean", "RLock", "injected into", "field com.acme.Jobs.orders")));
    }

    private static LockedMethodBuildItem item(Method method) {
        ConfigView config = ConfigView.of(Map.of(
                "padlock.locks.\"" + Shop.class.getName() + "#settle\".lock-delay", "15s",
                "padlock.locks.\"" + Shop.class.getName() + "#settle\".on-lease-lost", "interrupt"));
        LockedMethodValidator validator =
                new LockedMethodValidator(GlobalDefaults.read(config, new Problems()), config);
        LockedSpec spec = LockedSpec.of(method.getAnnotation(Locked.class));
        LockPlan plan = validator.validate(ReflectedShapes.of(method), spec).plan();
        return new LockedMethodBuildItem(
                plan.method(),
                method.getDeclaringClass().getName(),
                method.getName(),
                List.of(),
                List.of(),
                null,
                spec,
                plan,
                new TreeSet<>());
    }

    /** An expected row of the Dev UI's table: more columns than {@code Map.of} takes. */
    private static Map<String, String> row(String... columnsAndValues) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            row.put(columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return row;
    }
}
