package dev.padlock.fencing;

/**
 * A store refused a write because the writer's fencing token is not newer than one the store has already accepted for
 * the same key. The write was not made.
 *
 * <p>What it means: the writer's lock was taken over by a newer holder (its lease ran out while it was paused, in a GC
 * pause or a frozen VM, or cut off from Redis), and that holder has written since; or, when the two tokens are equal,
 * this token has written the key once already. What to do: do not act as if the write happened (no confirmation, no
 * message sent, no next step built on it); stop, and let the newer holder's write stand. Retrying with the same token
 * can never succeed; take the lock again for a new token if the work still needs doing.
 *
 * <pre>{@code
 * try {
 *     stock.update(connection, sku, lock.token(), qty);
 * } catch (StaleTokenException refused) {
 *     log.info(refused.getMessage());   // a newer holder recorded this SKU: its count stands
 *     return;
 * }
 * }</pre>
 */
public final class StaleTokenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String store;
    private final String key;
    private final long token;
    private final long seenToken;

    /**
     * @param store what refused the write, as the message names it: {@code table stock}, {@code Redis}
     * @param key the key of the row or Redis hash written to
     * @param token the token the write carried
     * @param seenToken the highest token the store had already accepted for {@code key}; at least {@code token}
     */
    public StaleTokenException(String store, String key, long token, long seenToken) {
        super(describe(store, key, token, seenToken));
        this.store = store;
        this.key = key;
        this.token = token;
        this.seenToken = seenToken;
    }

    private static String describe(String store, String key, long token, long seenToken) {
        String why = seenToken == token
                ? "the store has already accepted this same token, and a token writes a key once (this holder wrote"
                        + " it already, or Redis handed the token out twice)"
                : "the store has already accepted token " + seenToken + " from a newer holder: this writer's lock was"
                        + " taken over (its lease ran out while it was paused or cut off from Redis)";
        return "Stale fencing token " + token + " for key " + key + " in " + store + ": " + why + ". The write was not"
                + " made: do not act as if it happened; stop, and let the newer write stand (take the lock again for a"
                + " new token if the work still needs doing).";
    }

    /** What refused the write: {@code table <name>} for {@link JdbcFence}, {@code Redis} for {@link RedisFence}. */
    public String getStore() {
        return store;
    }

    /** The key of the row or Redis hash the write was for, e.g. {@code A-42}. */
    public String getKey() {
        return key;
    }

    /** The fencing token the refused write carried. */
    public long getToken() {
        return token;
    }

    /** The highest token the store had already accepted for the key: never less than {@link #getToken()}. */
    public long getSeenToken() {
        return seenToken;
    }
}
