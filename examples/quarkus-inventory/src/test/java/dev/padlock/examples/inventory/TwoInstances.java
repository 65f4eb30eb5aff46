package dev.padlock.examples.inventory;

import dev.padlock.examples.load.InventoryApps;
import dev.padlock.examples.load.InventoryClient;
import dev.padlock.examples.load.RunningApp;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisServer;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * A Redis from the test harness, a database ({@link TestDatabase}: H2 in server mode, in this JVM, on a free port; with
 * {@code -Dnative}, PostgreSQL) and two instances of the packaged application (JVMs of target/quarkus-app, or with
 * {@code -Dnative} the native executable) pointed at both: the instances share the locks and the stock table. {@link
 * #close()} stops them all, also when starting one of them failed.
 */
final class TwoInstances implements AutoCloseable {

    static final Path APP = Path.of(System.getProperty("inventory.quarkus-app", "target/quarkus-app/quarkus-run.jar"));
    static final Path LOGS = Path.of(System.getProperty("inventory.logs", "target/it-logs"));

    /** Both instances fire the stock snapshot job every 6 s (see {@link #snapshotRuns}). */
    static final long SNAPSHOT_INTERVAL_SECONDS = 6;

    final RedisServer redis;
    final TestDatabase database;
    final List<RunningApp> apps = new ArrayList<>();
    final InventoryClient client = new InventoryClient();

    private TwoInstances(RedisServer redis, TestDatabase database) {
        this.redis = redis;
        this.database = database;
    }

    /**
     * Starts Redis, the database and two instances named {@code <label>-1} and {@code <label>-2}, with extra system
     * properties.
     */
    static TwoInstances start(String label, Map<String, String> properties) {
        TestDatabase database = TestDatabase.start();
        TwoInstances started;
        try {
            started = new TwoInstances(Redis.startServer(), database);
        } catch (RuntimeException | Error e) {
            database.close();
            throw e;
        }
        try {
            Map<String, String> withDatabase = new HashMap<>(properties);
            withDatabase.putAll(database.applicationProperties());
            for (int i = 1; i <= 2; i++) {
                Map<String, String> instance = new HashMap<>(withDatabase);
                instance.put("inventory.instance", label + "-" + i);
                // the second instance's clock is a second behind: its scheduler fires each snapshot a second later
                instance.put("inventory.snapshot.schedule", (i - 1) + "/" + SNAPSHOT_INTERVAL_SECONDS + " * * * * ?");
                instance.put("padlock.locks.stock-snapshot.hold-at-least", "4s");
                RunningApp app = InventoryApps.startQuarkus(APP, label + "-" + i, started.redis.uri(), LOGS, instance);
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

    /**
     * The stock snapshot job's runs ({@code StockSnapshotJob}) for the next {@code count} occurrences, each complete
     * (both instances' schedules fired): by occurrence, the instances that ran it. Both instances fire every 6 s, the
     * second one a second after the first; their 4 s hold-at-least covers that skew with 3 s to spare for the second
     * instance running late, and ends 2 s before the first instance's next occurrence. (With 3 s, a second and a 1.5 s
     * hold, a CI run saw the second instance's scheduler half a second late on a busy machine: both ran.)
     */
    Map<Long, List<String>> snapshotRuns(int count) throws InterruptedException {
        long first = System.currentTimeMillis() / 1000 / SNAPSHOT_INTERVAL_SECONDS + 1;
        long last = first + count - 1;
        // just before the next occurrence: the last one's late run, if any, is recorded by then
        long until = ((last + 1) * SNAPSHOT_INTERVAL_SECONDS - 1) * 1000;
        while (System.currentTimeMillis() < until) {
            Thread.sleep(100);
        }
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient redisson = Redisson.create(config);
        try {
            Map<Long, List<String>> runs = new TreeMap<>();
            for (long occurrence = first; occurrence <= last; occurrence++) {
                runs.put(occurrence, new ArrayList<>());
            }
            for (String line : redisson.<String>getList("inventory:snapshots", StringCodec.INSTANCE)) {
                String[] parts = line.split(" ");
                long occurrence = Long.parseLong(parts[0]) / SNAPSHOT_INTERVAL_SECONDS;
                if (runs.containsKey(occurrence)) {
                    runs.get(occurrence).add(parts[1]);
                }
            }
            return runs;
        } finally {
            redisson.shutdown();
        }
    }

    /** A SKU's committed level in the stock table, the one source of truth both instances share. */
    int storedLevel(String sku) {
        try (Connection c = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
                PreparedStatement read = c.prepareStatement("SELECT level FROM stock WHERE sku = ?")) {
            read.setString(1, sku);
            try (ResultSet row = read.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("no stock row for " + sku);
                }
                return row.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            apps.forEach(RunningApp::close);
        } finally {
            try {
                redis.close();
            } finally {
                database.close();
            }
        }
    }
}
