package dev.padlock.fencing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Writes to a SQL table whose rows keep the highest fencing token that wrote them, refusing a write whose token is not
 * higher. Configure it once per table and set of columns; each {@link #update} is then one statement,
 *
 * <pre>{@code UPDATE <table> SET <column> = ?, ..., <fence> = ? WHERE <key> = ? AND <fence> < ?}</pre>
 *
 * and only a refused update costs a second one, a {@code SELECT} of the fence, to say why.
 *
 * <pre>{@code
 * // CREATE TABLE stock (sku VARCHAR(64) PRIMARY KEY, qty INT NOT NULL, fence BIGINT NOT NULL DEFAULT 0)
 * static final JdbcFence STOCK = JdbcFence.on("stock", "sku", "fence").setting("qty");
 *
 * @Locked(value = "stock", key = "{sku}", type = LockType.FENCED)
 * public void record(String sku, int qty) throws SQLException {
 *     try (Connection c = db.getConnection()) {
 *         STOCK.update(c, sku, lock.token(), qty);     // StaleTokenException: a newer holder wrote this row
 *     }
 * }
 * }</pre>
 *
 * <p><b>The table.</b> The key column identifies one row (a primary key or unique column). The fence column is a
 * {@code BIGINT NOT NULL}, {@code 0} in a row no token has written (Padlock's tokens start above 0). This class updates
 * rows; it never inserts them, since standard SQL has no insert-or-update that every database runs atomically: the
 * application inserts each row once, with fence {@code 0}.
 *
 * <p><b>Why strictly less than.</b> A token writes a row once. Should Redis ever hand one token to two holders
 * (Redisson's own counter does after a failover to a replica that missed its last increment; Padlock's clock-minted
 * tokens only where a server lost the last token and its clock went back), {@code <=} would let both write the same
 * row. The price: a holder changes a row with one {@code update} per token, so put everything it changes in that row
 * into one call.
 *
 * <p><b>Transactions.</b> The update runs on the caller's connection, in the caller's transaction: it neither commits
 * nor changes auto-commit. The condition is part of the {@code UPDATE}, so no read has to be kept consistent with it:
 * a row being updated by another transaction is locked, and the update waits for that transaction and compares with
 * what it committed ({@code JdbcFenceTransactionTest} checks this on H2). Where one holder's work spans several
 * statements, run its fenced update first in the transaction: a stale holder is refused before its other statements
 * run, and rolls them back with the rest.
 *
 * <p>Identifiers are checked when the fence is configured and written into its SQL as given, so they must be plain
 * SQL identifiers (ASCII letters, digits, {@code _}; {@code schema.table} for the table); anything else, a quoted
 * name or a space or quote in it, is refused with {@link IllegalArgumentException} naming it. Keys and values are bound
 * as parameters, never written into the SQL. Immutable and thread-safe; one instance per table serves every thread.
 */
public final class JdbcFence {

    /** A name no SQL parser can read as anything else: it is written into the statement unquoted. */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final String table;
    private final String keyColumn;
    private final String fenceColumn;
    private final List<String> columns;
    /** Both statements are built here, once: an update only binds parameters. */
    private final String update;

    private final String check;

    private JdbcFence(String table, String keyColumn, String fenceColumn, List<String> columns) {
        this.table = table;
        this.keyColumn = keyColumn;
        this.fenceColumn = fenceColumn;
        this.columns = columns;
        StringBuilder set = new StringBuilder();
        for (String column : columns) {
            set.append(column).append(" = ?, ");
        }
        this.update = "UPDATE " + table + " SET " + set + fenceColumn + " = ? WHERE " + keyColumn + " = ? AND "
                + fenceColumn + " < ?";
        this.check = "SELECT " + fenceColumn + " FROM " + table + " WHERE " + keyColumn + " = ?";
    }

    /**
     * A fence on {@code table} that sets no column but the fence itself; add the columns each update sets with
     * {@link #setting}.
     *
     * @param table the table, e.g. {@code stock} or {@code inventory.stock}
     * @param keyColumn the column that identifies a row, e.g. {@code sku}
     * @param fenceColumn the {@code BIGINT NOT NULL} column holding the highest token that wrote the row, e.g. {@code
     *     fence}
     * @throws IllegalArgumentException when a name is not a plain SQL identifier, or the two columns are one
     */
    public static JdbcFence on(String table, String keyColumn, String fenceColumn) {
        for (String part : Objects.requireNonNull(table, "table").split("\\.", -1)) {
            requireIdentifier("table", table, part);
        }
        requireIdentifier("key column", keyColumn, keyColumn);
        requireIdentifier("fence column", fenceColumn, fenceColumn);
        if (sameName(keyColumn, fenceColumn)) {
            throw new IllegalArgumentException("Invalid JdbcFence fence column " + fenceColumn + " on table " + table
                    + ": it is also the key column. Give the token a column of its own (BIGINT NOT NULL DEFAULT 0).");
        }
        return new JdbcFence(table, keyColumn, fenceColumn, List.of());
    }

    /**
     * The same fence, with the columns each {@link #update} sets, in the order their values are passed. Replaces any
     * columns set before.
     *
     * @param columns the columns, e.g. {@code "qty", "counted_by"}; none for an update that only moves the fence
     * @throws IllegalArgumentException when a name is not a plain SQL identifier, appears twice, or is the key or fence
     *     column (the fence column is set by every update, to the token)
     */
    public JdbcFence setting(String... columns) {
        List<String> checked = new ArrayList<>();
        for (String column : columns) {
            requireIdentifier("column", column, column);
            for (String other : List.of(keyColumn, fenceColumn)) {
                if (sameName(column, other)) {
                    throw new IllegalArgumentException("Invalid JdbcFence column " + column + " on table " + table
                            + ": it is the " + (other.equals(keyColumn) ? "key" : "fence") + " column. List only the"
                            + " columns the write changes; the fence is set to the token by every update.");
                }
            }
            for (String seen : checked) {
                if (sameName(column, seen)) {
                    throw new IllegalArgumentException(
                            "Invalid JdbcFence column " + column + " on table " + table + ": it is listed twice.");
                }
            }
            checked.add(column);
        }
        return new JdbcFence(table, keyColumn, fenceColumn, List.copyOf(checked));
    }

    /**
     * Sets the configured columns of the row with {@code key} to {@code values} and its fence to {@code token}, if
     * the row's fence is below {@code token}; one {@code UPDATE}.
     *
     * @param connection where to run it, in its current transaction; not closed
     * @param key the row's key, bound with {@link PreparedStatement#setObject(int, Object)}; not null
     * @param token the writer's fencing token ({@code LockContext.token()}); positive
     * @param values one per column of {@link #setting}, in that order, bound with {@code setObject}
     * @throws StaleTokenException when the row's fence is already {@code token} or higher: a newer holder (or this
     *     token) has written the row, and nothing was written now
     * @throws MissingRowException when no row has the key
     * @throws IllegalArgumentException when the number of values differs from the number of columns, or the token is
     *     not positive
     * @throws IllegalStateException when the key matched several rows (all were updated: roll back), when the row's
     *     fence is {@code NULL}, or when the row changed between the update and the check of why it wrote nothing
     * @throws SQLException from the driver
     */
    public void update(Connection connection, Object key, long token, Object... values) throws SQLException {
        Objects.requireNonNull(key, "key");
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("JdbcFence on table " + table + " sets " + columns + ": "
                    + columns.size() + " values expected, " + values.length + " given");
        }
        if (token <= 0) {
            throw new IllegalArgumentException("Invalid fencing token " + token + " for " + keyColumn + " = " + key
                    + " in table " + table + ": tokens are positive (LockContext.token() of a FENCED lock)");
        }
        int updated;
        try (PreparedStatement statement = connection.prepareStatement(update)) {
            int parameter = 1;
            for (Object value : values) {
                statement.setObject(parameter++, value);
            }
            statement.setLong(parameter++, token);
            statement.setObject(parameter++, key);
            statement.setLong(parameter, token);
            updated = statement.executeUpdate();
        }
        if (updated == 1) {
            return;
        }
        if (updated > 1) {
            throw new IllegalStateException(updated + " rows of table " + table + " have " + keyColumn + " = " + key
                    + ", and all were updated: roll the transaction back. The key column must identify one row"
                    + " (a primary key or a unique constraint).");
        }
        throw whyNothingWasWritten(connection, key, token);
    }

    /** The one extra statement of a refused update: the fence it met decides which exception the caller gets. */
    private RuntimeException whyNothingWasWritten(Connection connection, Object key, long token) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(check)) {
            statement.setObject(1, key);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    return new MissingRowException(table, keyColumn, String.valueOf(key));
                }
                long seen = row.getLong(1);
                if (row.wasNull()) {
                    return new IllegalStateException("The row with " + keyColumn + " = " + key + " in table " + table
                            + " has a NULL " + fenceColumn + ", which no token is greater than: nothing was written."
                            + " Declare the column BIGINT NOT NULL DEFAULT 0 and set it to 0 where it is NULL.");
                }
                if (seen >= token) {
                    return new StaleTokenException("table " + table, String.valueOf(key), token, seen);
                }
                return new IllegalStateException("The row with " + keyColumn + " = " + key + " in table " + table
                        + " changed between the fenced update and its check (" + fenceColumn + " now " + seen
                        + ", below token " + token + "; inserted meanwhile, or its fence lowered): nothing was"
                        + " written. Run the update again.");
            }
        }
    }

    private static void requireIdentifier(String role, String whole, String part) {
        if (part == null || !IDENTIFIER.matcher(part).matches()) {
            throw new IllegalArgumentException("Invalid JdbcFence " + role + " "
                    + (whole == null ? "null" : "\"" + whole + "\"")
                    + ": a plain SQL identifier is expected (ASCII letters, digits and _, not starting with a digit"
                    + (role.equals("table") ? "; schema.table for a table in another schema" : "")
                    + "). It is written into the SQL as it is, so nothing else is accepted; for a name that needs"
                    + " quotes, create a view with a plain name.");
        }
    }

    /** Unquoted SQL names are case-insensitive. */
    private static boolean sameName(String one, String other) {
        return one.toLowerCase(Locale.ROOT).equals(other.toLowerCase(Locale.ROOT));
    }

    /** The update statement, e.g. {@code JdbcFence[UPDATE stock SET qty = ?, fence = ? WHERE sku = ? AND fence < ?]}. */
    @Override
    public String toString() {
        return "JdbcFence[" + update + "]";
    }
}
