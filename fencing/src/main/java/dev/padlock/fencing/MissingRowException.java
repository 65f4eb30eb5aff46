package dev.padlock.fencing;

/**
 * A {@link JdbcFence} update found no row with its key: nothing was written. {@code JdbcFence} updates rows and never
 * inserts them, so the application creates each row once, with a fence of {@code 0} (no token seen).
 */
public final class MissingRowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String table;
    private final String key;

    /**
     * @param table the table, as {@link JdbcFence} was given it
     * @param keyColumn the key column, as {@link JdbcFence} was given it
     * @param key the key looked for
     */
    public MissingRowException(String table, String keyColumn, String key) {
        super("No row in table " + table + " with " + keyColumn + " = " + key + ": nothing was written. A fenced"
                + " update changes an existing row and never inserts one: insert the row first, with fence 0 (no"
                + " token seen), or check the key.");
        this.table = table;
        this.key = key;
    }

    /** The table that has no row for the key. */
    public String getTable() {
        return table;
    }

    /** The key no row has, as text. */
    public String getKey() {
        return key;
    }
}
