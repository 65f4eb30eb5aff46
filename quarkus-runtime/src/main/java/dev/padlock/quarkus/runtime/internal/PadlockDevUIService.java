package dev.padlock.quarkus.runtime.internal;

import dev.padlock.core.events.LiveLocks;
import dev.padlock.core.server.ServerFindings;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The Dev UI's JSON-RPC service for Padlock's live page (dev mode only; the build registers it there and nowhere
 * else): what the application's locks are doing now, and what the server check found on Redis, as plain rows the page
 * polls. Rendered keys are shown: in dev
 * mode they are the developer's own data.
 */
public class PadlockDevUIService {

    @Inject
    PadlockRuntime padlock;

    /**
     * Held locks, local queues, the latest losses and what the server check found, each a list of rows; durations in
     * milliseconds.
     */
    public Map<String, Object> liveLocks() {
        LiveLocks live = padlock.engine().liveLocks();
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("held", rows(live.held(), held -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("key", held.key());
            row.put("lock", held.lockName());
            row.put("method", held.method());
            row.put("type", held.type().name());
            row.put("heldMillis", held.heldMillis());
            row.put("leaseLeftMillis", held.leaseLeftMillis());
            row.put("lease", held.renewed() ? "watchdog" : "fixed");
            row.put("state", held.state());
            return row;
        }));
        page.put("queues", rows(live.queues(), queue -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("key", queue.key());
            row.put("waiting", queue.waiting());
            return row;
        }));
        page.put("losses", rows(live.recentLosses(), loss -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("at", loss.at().toString());
            row.put("key", loss.key());
            row.put("method", loss.method());
            row.put("detectedBy", loss.detectedBy().name());
            row.put("heldMillis", loss.heldMillis());
            row.put("cause", loss.cause() == null ? "" : loss.cause());
            return row;
        }));
        ServerFindings findings = padlock.serverFindings();
        page.put("serverChecked", findings.checked());
        page.put("server", rows(findings.latest(), finding -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("severity", finding.severity().name());
            row.put("node", finding.node());
            row.put("setting", finding.setting());
            row.put("value", finding.value());
            row.put("message", finding.message());
            return row;
        }));
        return page;
    }

    /** How many locks the application holds now: the card's label. */
    public int heldCount() {
        return padlock.engine().liveLocks().held().size();
    }

    private static <T> List<Map<String, Object>> rows(List<T> items, Function<T, Map<String, Object>> row) {
        List<Map<String, Object>> rows = new ArrayList<>(items.size());
        items.forEach(item -> rows.add(row.apply(item)));
        return rows;
    }
}
