package dev.padlock.examples.inventory;

import dev.padlock.examples.load.FreePort;
import java.sql.SQLException;
import java.util.Map;
import org.h2.tools.Server;

/**
 * The database both instances of a test share, started by the test on a free port: H2 in server mode, in this JVM,
 * for the application on the JVM; PostgreSQL ({@link PostgresServer}) for the native executable, which cannot embed H2
 * ({@code -Dinventory.database=postgresql}, set by the {@code native} profile).
 */
interface TestDatabase extends AutoCloseable {

    /** The datasource settings an instance gets as system properties. */
    Map<String, String> applicationProperties();

    /** A connection URL, user and password for the test's own reads. */
    String jdbcUrl();

    String user();

    String password();

    @Override
    void close();

    static TestDatabase start() {
        String kind = System.getProperty("inventory.database", "h2");
        return switch (kind) {
            case "h2" -> H2.start();
            case "postgresql" -> new Postgres(PostgresServer.start());
            default -> throw new IllegalArgumentException("inventory.database is '" + kind + "': use h2 or postgresql");
        };
    }

    /** H2 in server mode, in this JVM, with an in-memory database kept until the server stops. */
    record H2(Server server, String jdbcUrl) implements TestDatabase {

        static H2 start() {
            try {
                Server server = Server.createTcpServer("-tcpPort", String.valueOf(FreePort.find()), "-ifNotExists")
                        .start();
                return new H2(
                        server, "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:inventory;DB_CLOSE_DELAY=-1");
            } catch (SQLException e) {
                throw new IllegalStateException("Cannot start H2 in server mode", e);
            }
        }

        @Override
        public Map<String, String> applicationProperties() {
            return Map.of("quarkus.datasource.jdbc.url", jdbcUrl);
        }

        @Override
        public String user() {
            return "sa";
        }

        @Override
        public String password() {
            return "";
        }

        @Override
        public void close() {
            server.stop();
        }
    }

    /** A PostgreSQL server of the test's own. */
    record Postgres(PostgresServer server) implements TestDatabase {

        @Override
        public Map<String, String> applicationProperties() {
            return Map.of(
                    "quarkus.datasource.jdbc.url", jdbcUrl(),
                    "quarkus.datasource.username", user(),
                    "quarkus.datasource.password", password());
        }

        @Override
        public String jdbcUrl() {
            return server.jdbcUrl();
        }

        @Override
        public String user() {
            return PostgresServer.USER;
        }

        @Override
        public String password() {
            return "";
        }

        @Override
        public void close() {
            server.close();
        }
    }
}
