package dev.padlock.examples.inventory;

import dev.padlock.examples.load.FreePort;
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
import org.h2.tools.Server;

/**
 * A Redis from the test harness, a database (H2 in server mode, in this JVM, on a free port) and two JVMs of the
 * packaged application (target/quarkus-app) pointed at both: the instances share the locks and the stock table.
 * {@link #close()} stops them all, also when starting one of them failed.
 */
final class TwoInstances implements AutoCloseable {

    static final Path APP = Path.of(System.getProperty("inventory.quarkus-app", "target/quarkus-app/quarkus-run.jar"));
    static final Path LOGS = Path.of(System.getProperty("inventory.logs", "target/it-logs"));

    final RedisServer redis;
    final Server database;
    final String databaseUrl;
    final List<RunningApp> apps = new ArrayList<>();
    final InventoryClient client = new InventoryClient();

    private TwoInstances(RedisServer redis, Server database) {
        this.redis = redis;
        this.database = database;
        this.databaseUrl = "jdbc:h2:tcp://127.0.0.1:" + database.getPort() + "/mem:inventory;DB_CLOSE_DELAY=-1";
    }

    /**
     * Starts Redis, the database and two instances named {@code <label>-1} and {@code <label>-2}, with extra system
     * properties.
     */
    static TwoInstances start(String label, Map<String, String> properties) {
        Server database;
        try {
            database = Server.createTcpServer("-tcpPort", String.valueOf(FreePort.find()), "-ifNotExists")
                    .start();
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot start H2 in server mode", e);
        }
        TwoInstances started;
        try {
            started = new TwoInstances(Redis.startServer(), database);
        } catch (RuntimeException | Error e) {
            database.stop();
            throw e;
        }
        try {
            Map<String, String> withDatabase = new HashMap<>(properties);
            withDatabase.put("quarkus.datasource.jdbc.url", started.databaseUrl);
            for (int i = 1; i <= 2; i++) {
                RunningApp app =
                        InventoryApps.startQuarkus(APP, label + "-" + i, started.redis.uri(), LOGS, withDatabase);
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

    /** A SKU's committed level in the stock table, the one source of truth both instances share. */
    int storedLevel(String sku) {
        try (Connection c = DriverManager.getConnection(databaseUrl, "sa", "");
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
                database.stop();
            }
        }
    }
}
