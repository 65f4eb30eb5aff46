package dev.padlock.quarkus.deployment;

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.tools.Server;

/**
 * A real database for the transaction tests: H2 in server mode on a free port, started by the tests in this JVM and
 * stopped when it exits, so that an application under test and a second one (the test's own connection) share its
 * rows. One table, {@code counter(id, amount)}. As {@link TestRedis}, the address is shared through a system
 * property, which both of {@code QuarkusExtensionTest}'s class loaders see.
 */
final class TestDatabase {

    private static final String PROPERTY = "padlock.quarkus-tests.h2";

    private TestDatabase() {}

    /**
     * The JDBC URL of the shared in-memory database. Row locks are waited for up to 10 s (H2's default is 1 s), so a
     * writer behind an open transaction waits for it, as on any server database.
     */
    static synchronized String url() {
        String url = System.getProperty(PROPERTY);
        if (url == null) {
            int port = freePort();
            try {
                Server server = Server.createTcpServer("-tcpPort", String.valueOf(port), "-ifNotExists")
                        .start();
                Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "h2-stop"));
            } catch (SQLException e) {
                throw new IllegalStateException("Could not start H2 in server mode on port " + port, e);
            }
            url = "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:ledger;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
            System.setProperty(PROPERTY, url);
            update("CREATE TABLE counter (id VARCHAR(40) PRIMARY KEY, amount INT NOT NULL)");
        }
        return url;
    }

    /** A connection of the test's own, in auto-commit mode: another application's view of the rows. */
    static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), "sa", "");
    }

    /** Sets a row's committed value. */
    static void put(String id, int amount) {
        update("MERGE INTO counter KEY (id) VALUES ('" + id + "', " + amount + ")");
    }

    /** A row's committed value. */
    static int amount(String id) {
        try (Connection c = connect();
                PreparedStatement read = c.prepareStatement("SELECT amount FROM counter WHERE id = ?")) {
            read.setString(1, id);
            try (ResultSet row = read.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("no row " + id);
                }
                return row.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void update(String sql) {
        try (Connection c = connect();
                Statement statement = c.createStatement()) {
            statement.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
