package dev.padlock.examples.fencing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Stock levels in a SQL table that checks fencing tokens: each row remembers the highest token a write to it carried
 * ({@code fence}), and a write is accepted only with a higher one. A holder whose lock lapsed while it was paused
 * (a GC pause, a frozen VM) or cut off from Redis carries an older token than the holder that took the key after it,
 * so its late write changes nothing. The check is one condition in the {@code UPDATE} itself, so it needs no
 * transaction around a read: PostgreSQL, MySQL and H2 run the same statement.
 *
 * <p>The check is strict ({@code fence < token}): a token Redis issued twice (a failover to a replica that missed its
 * increment, see {@code docs/reference/failover.md}) can write a row once, never twice. The price: a holder writes a row once
 * per token, so put everything it changes in that row into one statement.
 */
public final class StockTable {

    /** The write of a holder of a {@code FENCED} lock: accepted only with a token higher than any before. */
    static final String FENCED_UPDATE = "UPDATE stock SET qty = ?, fence = ? WHERE sku = ? AND fence < ?";

    /** What a store without the check does, last writer wins: the control in {@code FencedStockTest}. */
    static final String UNCHECKED_UPDATE = "UPDATE stock SET qty = ?, fence = ? WHERE sku = ?";

    private final DataSource db;
    private final boolean checksTokens;

    private StockTable(DataSource db, boolean checksTokens) {
        this.db = db;
        this.checksTokens = checksTokens;
    }

    /** The table with the token check. */
    public static StockTable checkingTokens(DataSource db) {
        return new StockTable(db, true);
    }

    /** The same table without the check, to see what the check prevents. */
    public static StockTable withoutTokenCheck(DataSource db) {
        return new StockTable(db, false);
    }

    /** Creates the table ({@code fence} 0: no token seen yet; Redisson's tokens start at 1). */
    public void create() throws SQLException {
        try (Connection c = db.getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS stock"
                    + " (sku VARCHAR(64) PRIMARY KEY, qty INT NOT NULL, fence BIGINT NOT NULL DEFAULT 0)");
        }
    }

    /** Adds a SKU with no token seen yet. */
    public void add(String sku, int qty) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("INSERT INTO stock (sku, qty) VALUES (?, ?)")) {
            s.setString(1, sku);
            s.setInt(2, qty);
            s.executeUpdate();
        }
    }

    /**
     * Sets the quantity of {@code sku}, carrying the writer's fencing token ({@code LockContext.token()}).
     *
     * @return {@code true} when written; {@code false} when the row has seen this token or a newer one, so the
     *     writer's lock is no longer the newest: its caller must not act as if the write happened
     */
    public boolean write(String sku, int qty, long token) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement(checksTokens ? FENCED_UPDATE : UNCHECKED_UPDATE)) {
            s.setInt(1, qty);
            s.setLong(2, token);
            s.setString(3, sku);
            if (checksTokens) {
                s.setLong(4, token);
            }
            return s.executeUpdate() == 1;
        }
    }

    /** The quantity of {@code sku} now. */
    public int quantity(String sku) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT qty FROM stock WHERE sku = ?")) {
            s.setString(1, sku);
            try (ResultSet row = s.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalArgumentException("no stock row for " + sku);
                }
                return row.getInt(1);
            }
        }
    }
}
