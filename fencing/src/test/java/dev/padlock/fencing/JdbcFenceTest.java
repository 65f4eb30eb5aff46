package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One writer at a time: what an update writes, what it refuses, and what each refusal says. */
class JdbcFenceTest {

    private static final JdbcDataSource DB = new JdbcDataSource();

    private static final JdbcFence STOCK = JdbcFence.on("stock", "sku", "fence").setting("qty", "counted_by");

    record Row(int qty, String countedBy, long fence) {}

    @BeforeAll
    static void createTables() throws SQLException {
        DB.setURL("jdbc:h2:mem:jdbc-fence;DB_CLOSE_DELAY=-1");
        execute("CREATE TABLE stock (sku VARCHAR(64) PRIMARY KEY, qty INT NOT NULL, counted_by VARCHAR(64),"
                + " fence BIGINT NOT NULL DEFAULT 0)");
    }

    @Test
    void aHigherTokenWritesTheColumnsAndBecomesTheRowsFence() throws SQLException {
        insert("A-1");

        update(STOCK, "A-1", 5, 10, "ann");
        assertThat(row("A-1")).isEqualTo(new Row(10, "ann", 5));

        update(STOCK, "A-1", 7, 11, "bob");
        assertThat(row("A-1")).isEqualTo(new Row(11, "bob", 7));
    }

    @Test
    void anOlderTokenIsRefusedNamingTheTableTheKeyAndBothTokens() throws SQLException {
        insert("A-2");
        update(STOCK, "A-2", 9, 12, "newer");

        StaleTokenException refused =
                catchThrowableOfType(StaleTokenException.class, () -> update(STOCK, "A-2", 4, 7, "older"));

        assertThat(refused.getStore()).isEqualTo("table stock");
        assertThat(refused.getKey()).isEqualTo("A-2");
        assertThat(refused.getToken()).isEqualTo(4);
        assertThat(refused.getSeenToken()).isEqualTo(9);
        assertThat(refused)
                .hasMessage("Stale fencing token 4 for key A-2 in table stock: the store has already accepted token 9"
                        + " from a newer holder: this writer's lock was taken over (its lease ran out while it was"
                        + " paused or cut off from Redis). The write was not made: do not act as if it happened; stop,"
                        + " and let the newer write stand (take the lock again for a new token if the work still needs"
                        + " doing).");
        assertThat(row("A-2")).as("the newer write stands").isEqualTo(new Row(12, "newer", 9));
    }

    @Test
    void aTokenWritesARowOnlyOnce() throws SQLException {
        insert("A-3");
        update(STOCK, "A-3", 9, 12, "first");

        StaleTokenException refused =
                catchThrowableOfType(StaleTokenException.class, () -> update(STOCK, "A-3", 9, 13, "again"));

        assertThat(refused.getToken()).isEqualTo(9);
        assertThat(refused.getSeenToken()).isEqualTo(9);
        assertThat(refused)
                .hasMessageStartingWith("Stale fencing token 9 for key A-3 in table stock: the store has already"
                        + " accepted this same token, and a token writes a key once")
                .hasMessageContaining("The write was not made: do not act as if it happened");
        assertThat(row("A-3")).isEqualTo(new Row(12, "first", 9));
    }

    @Test
    void aMissingRowIsReportedAndNotInserted() throws SQLException {
        MissingRowException missing =
                catchThrowableOfType(MissingRowException.class, () -> update(STOCK, "nowhere", 3, 1, "x"));

        assertThat(missing.getTable()).isEqualTo("stock");
        assertThat(missing.getKey()).isEqualTo("nowhere");
        assertThat(missing)
                .hasMessageStartingWith("No row in table stock with sku = nowhere: nothing was written.")
                .hasMessageContaining("insert the row first, with fence 0");
        assertThat(count("SELECT COUNT(*) FROM stock WHERE sku = 'nowhere'")).isZero();
    }

    @Test
    void tokensNear2To52AreComparedAndStoredExactly() throws SQLException {
        insert("A-4");
        long token = (1L << 52) + 1; // neighbours a double could not tell apart beyond 2^53; here nothing is a double

        update(STOCK, "A-4", token + 1, 1, "newer");
        StaleTokenException refused =
                catchThrowableOfType(StaleTokenException.class, () -> update(STOCK, "A-4", token, 2, "older"));

        assertThat(refused.getSeenToken()).isEqualTo(token + 1);
        assertThat(row("A-4").fence()).isEqualTo(4_503_599_627_370_498L);
        update(STOCK, "A-4", Long.MAX_VALUE, 3, "last");
        assertThat(row("A-4").fence()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anUpdateWithoutColumnsMovesOnlyTheFence() throws SQLException {
        insert("A-5");
        update(STOCK, "A-5", 2, 8, "ann");

        update(JdbcFence.on("stock", "sku", "fence"), "A-5", 3);

        assertThat(row("A-5")).isEqualTo(new Row(8, "ann", 3));
    }

    @Test
    void theUpdateIsOneStatementWithTheCheckInItsCondition() {
        assertThat(STOCK)
                .hasToString(
                        "JdbcFence[UPDATE stock SET qty = ?, counted_by = ?, fence = ? WHERE sku = ? AND fence < ?]");
    }

    @Test
    void aTableInAnotherSchemaIsNamedSchemaDotTable() throws SQLException {
        execute("CREATE SCHEMA inventory");
        execute(
                "CREATE TABLE inventory.shelf (id INT PRIMARY KEY, label VARCHAR(20), fence BIGINT NOT NULL DEFAULT 0)");
        execute("INSERT INTO inventory.shelf (id) VALUES (1)");

        update(JdbcFence.on("inventory.shelf", "id", "fence").setting("label"), 1, 4, "aisle 3");

        assertThat(count("SELECT fence FROM inventory.shelf WHERE id = 1")).isEqualTo(4);
    }

    @Test
    void theNumberOfValuesMustMatchTheColumns() {
        assertThatThrownBy(() -> update(STOCK, "A-6", 1, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("JdbcFence on table stock sets [qty, counted_by]: 2 values expected, 1 given");
    }

    @Test
    void aTokenBelowOneIsRefusedBeforeAnyStatement() {
        assertThatThrownBy(() -> update(STOCK, "A-7", 0, 5, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid fencing token 0 for sku = A-7 in table stock: tokens are positive"
                        + " (LockContext.token() of a FENCED lock)");
    }

    @Test
    void aNullFenceIsReportedWithItsFix() throws SQLException {
        execute("CREATE TABLE loose (id INT PRIMARY KEY, v INT, fence BIGINT)");
        execute("INSERT INTO loose (id, v) VALUES (1, 0)");

        assertThatThrownBy(() -> update(JdbcFence.on("loose", "id", "fence").setting("v"), 1, 5, 9))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The row with id = 1 in table loose has a NULL fence, which no token is greater than:"
                        + " nothing was written. Declare the column BIGINT NOT NULL DEFAULT 0 and set it to 0 where it"
                        + " is NULL.");
    }

    @Test
    void aKeyThatMatchesSeveralRowsIsReported() throws SQLException {
        execute("CREATE TABLE twice (k VARCHAR(8), v INT, fence BIGINT NOT NULL DEFAULT 0)");
        execute("INSERT INTO twice (k, v) VALUES ('x', 0), ('x', 0)");

        assertThatThrownBy(() -> update(JdbcFence.on("twice", "k", "fence").setting("v"), "x", 5, 9))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(
                        "2 rows of table twice have k = x, and all were updated: roll the" + " transaction back.");
    }

    private static void update(JdbcFence fence, Object key, long token, Object... values) throws SQLException {
        try (Connection c = DB.getConnection()) {
            fence.update(c, key, token, values);
        }
    }

    private static void insert(String sku) throws SQLException {
        try (Connection c = DB.getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO stock (sku, qty) VALUES (?, 0)")) {
            s.setString(1, sku);
            s.executeUpdate();
        }
    }

    private static Row row(String sku) throws SQLException {
        try (Connection c = DB.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT qty, counted_by, fence FROM stock WHERE sku = ?")) {
            s.setString(1, sku);
            try (ResultSet r = s.executeQuery()) {
                assertThat(r.next()).as("a row for %s", sku).isTrue();
                return new Row(r.getInt(1), r.getString(2), r.getLong(3));
            }
        }
    }

    private static long count(String query) throws SQLException {
        try (Connection c = DB.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
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
