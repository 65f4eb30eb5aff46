package dev.padlock.quarkus.deployment;

import dev.padlock.core.config.DurationText;
import dev.padlock.core.config.EnumSetting;
import dev.padlock.core.plan.LockPlan;
import dev.padlock.core.plan.LockSettings;
import dev.padlock.quarkus.runtime.internal.NamedLockPoint;
import dev.padlock.quarkus.runtime.internal.PadlockDevUIService;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Padlock's card in the Dev UI (dev mode only): every {@code @Locked} method with the lock it takes and the
 * settings the rules resolved for it, and every {@code @Named} lock injection point (the values of the build's
 * configuration, in dev mode the application's own); and a live page, polled from {@link PadlockDevUIService}: the
 * locks the application holds now, its callers queued per key, and its latest losses.
 */
class PadlockDevUIProcessor {

    static final String METHODS = "lockedMethods";
    static final String NAMED_LOCKS = "namedLocks";

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    CardPageBuildItem card(List<LockedMethodBuildItem> methods, NamedLockPointsBuildItem namedLocks) {
        List<Map<String, String>> methodRows = new ArrayList<>();
        methods.stream()
                .sorted(Comparator.comparing(LockedMethodBuildItem::id))
                .forEach(m -> methodRows.add(row(m.id(), m.plan())));
        List<Map<String, String>> lockRows = new ArrayList<>();
        for (NamedLockPoint point : namedLocks.points()) {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("name", point.getName());
            row.put("bean", point.getKind().simpleName());
            row.put("injected into", point.getWhere());
            lockRows.add(row);
        }

        CardPageBuildItem card = new CardPageBuildItem();
        card.addBuildTimeData(METHODS, methodRows);
        card.addBuildTimeData(NAMED_LOCKS, lockRows);
        card.addPage(Page.tableDataPageBuilder("Locked methods")
                .icon("font-awesome-solid:lock")
                .buildTimeDataKey(METHODS)
                .staticLabel(String.valueOf(methodRows.size())));
        card.addPage(Page.tableDataPageBuilder("Named locks")
                .icon("font-awesome-solid:key")
                .buildTimeDataKey(NAMED_LOCKS)
                .staticLabel(String.valueOf(lockRows.size())));
        card.addPage(Page.webComponentPageBuilder()
                .title("Locks held now")
                .icon("font-awesome-solid:hourglass-half")
                .componentLink("qwc-padlock-live.js")
                .dynamicLabelJsonRPCMethodName("heldCount"));
        return card;
    }

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    JsonRPCProvidersBuildItem liveService() {
        return new JsonRPCProvidersBuildItem(PadlockDevUIService.class);
    }

    private static Map<String, String> row(String method, LockPlan plan) {
        LockSettings settings = plan.settings();
        Map<String, String> row = new LinkedHashMap<>();
        row.put("method", method);
        row.put("lock", plan.lockName());
        row.put(
                "keys",
                plan.keys().isEmpty()
                        ? plan.redisBase()
                        : String.join(
                                ", ",
                                plan.keys().stream()
                                        .map(k -> plan.redisBase() + ":"
                                                + k.template().source())
                                        .toList()));
        row.put("type", settings.type().name());
        row.put("wait", DurationText.format(settings.waitTime()));
        row.put("lease", settings.usesWatchdog() ? "watchdog" : DurationText.format(settings.leaseTime()));
        row.put("on failure", settings.onFailure().name());
        // Whether a call that ends inside its caller's transaction keeps the lock until that transaction completes.
        row.put("release", EnumSetting.spelled(settings.release()));
        // The least time a call's keys stay held from its acquisition (run-once jobs); "-" when released at the end.
        row.put("hold at least", settings.holdsAtLeast() ? DurationText.format(settings.holdAtLeast()) : "-");
        // How much longer than the lease a key lives in Redis when its holder vanishes; "-" when not at all.
        row.put("lock delay", settings.lockDelay().isZero() ? "-" : DurationText.format(settings.lockDelay()));
        // What a call does when its lock is lost while it runs: warn, throw, or interrupt (stop its work).
        row.put("on lease lost", EnumSetting.spelled(settings.onLeaseLost()));
        return row;
    }
}
