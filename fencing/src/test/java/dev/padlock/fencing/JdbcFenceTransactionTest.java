package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A newer holder's update inside a transaction that has not committed yet: an older holder's update of the same row
 * waits for it, then compares its token with what the newer transaction left, committed or rolled back. Nothing is
 * read outside the statement, so there is no window between a check and a write.
 */
class JdbcFenceTransactionTest {

    private static final JdbcDataSource DB = new JdbcDataSource();
    private static final JdbcFence STOCK = JdbcFence.on("stock", "sku", "fence").setting("qty");

    private final ExecutorService olderHolder = Executors.newSingleThreadExecutor();

    @BeforeAll
    static void createTable() throws SQLException {
        // A lock wait of up to 30 s: the older writer must wait for the newer transaction, not time out.
        DB.setURL("jdbc:h2:mem:jdbc-fence-tx;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=30000");
        execute("CREATE TABLE stock (sku VARCHAR(64) PRIMARY KEY, qty INT NOT NULL, fence BIGINT NOT NULL DEFAULT 0)");
    }

    @AfterEach
    void stopOlderHolder() {
        olderHolder.shutdownNow();
    }

    @Test
    void anOlderWriterWaitingForTheRowIsRefusedOnceTheNewerTransactionCommits() throws Exception {
        execute("INSERT INTO stock (sku, qty) VALUES ('T-1', 0)");
        try (Connection newer = DB.getConnection()) {
            newer.setAutoCommit(false);
            STOCK.update(newer, "T-1", 20, 12);

            Future<Object> older = olderHolder.submit(() -> outcome(10, 7, "T-1"));
            awaitAWriterBlocked();
            assertThat(older).isNotDone();
            newer.commit();

            assertThat(older.get(30, TimeUnit.SECONDS))
                    .isInstanceOfSatisfying(StaleTokenException.class, refused -> assertThat(refused.getSeenToken())
                            .isEqualTo(20));
        }
        assertThat(query("SELECT qty FROM stock WHERE sku = 'T-1'")).isEqualTo(12);
        assertThat(query("SELECT fence FROM stock WHERE sku = 'T-1'")).isEqualTo(20);
    }

    @Test
    void anOlderWriterWaitingForTheRowWritesWhenTheNewerTransactionRollsBack() throws Exception {
        execute("INSERT INTO stock (sku, qty) VALUES ('T-2', 0)");
        try (Connection newer = DB.getConnection()) {
            newer.setAutoCommit(false);
            STOCK.update(newer, "T-2", 20, 12);

            Future<Object> older = olderHolder.submit(() -> outcome(10, 7, "T-2"));
            awaitAWriterBlocked();
            newer.rollback();

            assertThat(older.get(30, TimeUnit.SECONDS)).isEqualTo("written");
        }
        assertThat(query("SELECT qty FROM stock WHERE sku = 'T-2'")).isEqualTo(7);
        assertThat(query("SELECT fence FROM stock WHERE sku = 'T-2'")).isEqualTo(10);
    }

    /** "written", or the exception the update threw. */
    private static Object outcome(long token, int qty, String sku) {
        try (Connection c = DB.getConnection()) {
            STOCK.update(c, sku, token, qty);
            return "written";
        } catch (RuntimeException | SQLException e) {
            return e;
        }
    }

    /** Until H2 lists a session blocked by another: the older writer is waiting for the row. */
    private static void awaitAWriterBlocked() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (query("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL") == 0) {
            assertThat(System.nanoTime()).as("a writer blocked within 30 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static long query(String sql) throws SQLException {
        try (Connection c = DB.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = DB.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
