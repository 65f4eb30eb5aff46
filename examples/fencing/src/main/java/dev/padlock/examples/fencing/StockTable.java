package dev.padlock.examples.fencing;

import dev.padlock.fencing.JdbcFence;
import dev.padlock.fencing.StaleTokenException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Stock levels in a SQL table that checks fencing tokens: each row remembers the highest token a write to it carried
 * ({@code fence}), and {@link JdbcFence} accepts a write only with a higher one. A holder whose lock lapsed while it was
 * paused (a GC pause, a frozen VM) or cut off from Redis carries an older token than the holder that took the key after
 * it, so its late write changes nothing and it hears so ({@link StaleTokenException}). The check is one condition in
 * the {@code UPDATE} itself, so it needs no transaction around a read; the statement is standard SQL (run here on H2).
 */
public final class StockTable {

    /**
     * {@code UPDATE stock SET qty = ?, fence = ? WHERE sku = ? AND fence < ?}: strict, so a token writes a row once
     * (why: {@link JdbcFence}).
     */
    static final JdbcFence FENCED_QTY = JdbcFence.on("stock", "sku", "fence").setting("qty");

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

    /** Creates the table ({@code fence} 0: no token seen yet; Padlock's tokens start above 0). */
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
     * @throws StaleTokenException when the row has seen this token or a newer one: the writer's lock is no longer the
     *     newest, nothing was written, and its caller must not act as if the write happened (never thrown by the
     *     table {@link #withoutTokenCheck})
     */
    public void write(String sku, int qty, long token) throws SQLException {
        try (Connection c = db.getConnection()) {
            if (checksTokens) {
                FENCED_QTY.update(c, sku, token, qty);
                return;
            }
            try (PreparedStatement s = c.prepareStatement(UNCHECKED_UPDATE)) {
                s.setInt(1, qty);
                s.setLong(2, token);
                s.setString(3, sku);
                s.executeUpdate();
            }
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
