package dev.padlock.examples.inventory;

import dev.padlock.examples.load.InventoryApps;
import dev.padlock.examples.load.InventoryClient;
import dev.padlock.examples.load.RunningApp;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Redis from the test harness and two JVMs of the packaged application (target/quarkus-app) pointed at it.
 * {@link #close()} stops all three, also when starting one of them failed.
 */
final class TwoInstances implements AutoCloseable {

    static final Path APP = Path.of(System.getProperty("inventory.quarkus-app", "target/quarkus-app/quarkus-run.jar"));
    static final Path LOGS = Path.of(System.getProperty("inventory.logs", "target/it-logs"));

    final RedisServer redis;
    final List<RunningApp> apps = new ArrayList<>();
    final InventoryClient client = new InventoryClient();

    private TwoInstances(RedisServer redis) {
        this.redis = redis;
    }

    /** Starts Redis and two instances named {@code <label>-1} and {@code <label>-2}, with extra system properties. */
    static TwoInstances start(String label, Map<String, String> properties) {
        TwoInstances started = new TwoInstances(Redis.startServer());
        try {
            for (int i = 1; i <= 2; i++) {
                RunningApp app =
                        InventoryApps.startQuarkus(APP, label + "-" + i, started.redis.uri(), LOGS, properties);
                started.apps.add(app);
                started.client.warmUp(app.baseUri());
            }
            return started;
        } catch (RuntimeException | Error e) {
            started.close();
            throw e;
        }
    }

    List<URI> uris() {
        return apps.stream().map(RunningApp::baseUri).toList();
    }

    /** A SKU's level as stored in Redis, the one source of truth both instances share. */
    int storedLevel(String sku) {
        return Integer.parseInt(String.valueOf(redis.command("GET", "inventory:stock:" + sku)));
    }

    @Override
    public void close() {
        try {
            apps.forEach(RunningApp::close);
        } finally {
            redis.close();
        }
    }
}
