package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.fencing.ShuffledWrites.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eight threads write one row with shuffled tokens ({@link ShuffledWrites}). With {@link JdbcFence} the row never goes
 * back to an older token; the control runs the same writes as a plain {@code UPDATE}, and an older token wins.
 */
class JdbcFenceConcurrencyTest {

    private static final JdbcDataSource DB = new JdbcDataSource();
    private static final JdbcFence COUNTER =
            JdbcFence.on("counter", "id", "fence").setting("written_by");

    @BeforeAll
    static void createTable() throws SQLException {
        DB.setURL("jdbc:h2:mem:jdbc-fence-concurrency;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=30000");
        try (Connection c = DB.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE counter (id VARCHAR(16) PRIMARY KEY, written_by BIGINT,"
                    + " fence BIGINT NOT NULL DEFAULT 0)");
            s.execute("INSERT INTO counter (id) VALUES ('checked'), ('unchecked')");
        }
    }

    @Test
    void concurrentWritesWithShuffledTokensEndOnTheHighestAndNeverGoBack() throws Exception {
        Outcome outcome = ShuffledWrites.run("JdbcFence", new ShuffledWrites.Store() {
            @Override
            public boolean write(long token) throws SQLException {
                try (Connection c = DB.getConnection()) {
                    COUNTER.update(c, "checked", token, token);
                    return true;
                } catch (StaleTokenException refused) {
                    assertThat(refused.getSeenToken()).isGreaterThanOrEqualTo(token);
                    return false;
                }
            }

            @Override
            public long fence() throws SQLException {
                return fenceOf("checked");
            }
        });

        assertThat(outcome.wentBack())
                .as("accepted writes older than one accepted before")
                .isZero();
        assertThat(outcome.roundsEndedBehind())
                .as("rounds after which the row held an older token than one accepted")
                .isZero();
        assertThat(outcome.finalFence()).isEqualTo(outcome.highest());
        assertThat(writtenBy("checked")).as("the value came with its token").isEqualTo(outcome.highest());
        assertThat(outcome.accepted() + outcome.refused()).isEqualTo(ShuffledWrites.WRITES + 1);
        assertThat(outcome.accepted()).as("writes accepted besides the highest").isGreaterThan(1);
        assertThat(outcome.refused()).isPositive();
    }

    @Test
    void withoutTheCheckAnOlderTokenWins() throws Exception {
        Outcome outcome = ShuffledWrites.run("plain UPDATE (control)", new ShuffledWrites.Store() {
            @Override
            public boolean write(long token) throws SQLException {
                try (Connection c = DB.getConnection();
                        PreparedStatement s = c.prepareStatement(
                                "UPDATE counter SET written_by = ?, fence = ? WHERE id = 'unchecked'")) {
                    s.setLong(1, token);
                    s.setLong(2, token);
                    return s.executeUpdate() == 1;
                }
            }

            @Override
            public long fence() throws SQLException {
                return fenceOf("unchecked");
            }
        });

        assertThat(outcome.refused()).isZero();
        assertThat(outcome.wentBack())
                .as("accepted writes older than one accepted before")
                .isPositive();
        assertThat(outcome.finalFence()).as("an older token won").isLessThan(outcome.highest());
    }

    private static long fenceOf(String id) throws SQLException {
        return column("fence", id);
    }

    private static long writtenBy(String id) throws SQLException {
        return column("written_by", id);
    }

    private static long column(String column, String id) throws SQLException {
        try (Connection c = DB.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT " + column + " FROM counter WHERE id = ?")) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
