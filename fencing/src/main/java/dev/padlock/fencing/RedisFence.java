package dev.padlock.fencing;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Values kept in Redis with the fencing token that wrote them, refusing a write whose token is not higher than the
 * stored one. Each value is a hash of two fields, {@code value} (the text written) and {@code fence} (the token that
 * wrote it, in decimal); {@link #set} compares and writes in one Lua script, so one round trip and no other client's
 * command in between.
 *
 * <pre>{@code
 * @Inject
 * Prices(RedissonClient redisson, LockContext lock) {    // the application's client: one fence for every call
 *     this.fence = RedisFence.on(redisson);
 *     this.lock = lock;
 * }
 *
 * @Locked(value = "price", key = "{sku}", type = LockType.FENCED)
 * public void reprice(String sku, String price) {
 *     fence.set("price:" + sku, price, lock.token());    // StaleTokenException: a newer holder set it
 * }
 * }</pre>
 *
 * <p>A key that does not exist takes any token: the first write creates the hash. Deleting a hash, or letting it
 * expire, forgets its fence with it, so an older holder could then write; delete a fenced value only once no holder of
 * an older token can still be running. The script uses only its own key, and Redisson routes it by that key, so it runs
 * on a Redis Cluster as on one server ({@code RedisFenceClusterTest}).
 *
 * <p>Tokens travel as decimal text and the script compares them with Lua's {@code tonumber}, a double, which is exact
 * for integers up to 2<sup>53</sup>: tokens from 1 to {@value #MAX_TOKEN} are accepted, which covers Padlock's tokens.
 * The script stores the token as the text it was given, so no Lua number formatting (exponent form) reaches Redis.
 * Thread-safe; one instance serves every thread.
 */
public final class RedisFence {

    /** The highest token {@link #set} takes: 2<sup>53</sup> − 1, the last integer Lua's numbers tell apart exactly. */
    public static final long MAX_TOKEN = (1L << 53) - 1;

    /** The hash field that holds the value. */
    public static final String VALUE_FIELD = "value";

    /** The hash field that holds the token of the write that stored the value, in decimal. */
    public static final String FENCE_FIELD = "fence";

    /**
     * KEYS[1] the hash; ARGV[1] the value, ARGV[2] the token as decimal text. Answers nil when written, else the stored
     * fence (as stored, so Java parses the exact text). ARGV[2] is written back as given, never through a Lua number.
     */
    static final String SET_SCRIPT =
            """
            local seen = redis.call('HGET', KEYS[1], 'fence')
            if seen then
              local stored = tonumber(seen)
              if stored == nil then
                return redis.error_reply('the fence field of ' .. KEYS[1] .. ' is not a number: ' .. seen)
              end
              if stored >= tonumber(ARGV[2]) then
                return seen
              end
            end
            redis.call('HSET', KEYS[1], 'value', ARGV[1], 'fence', ARGV[2])
            return false
            """;

    private final RedissonClient redisson;
    private final RScript script;

    private RedisFence(RedissonClient redisson) {
        this.redisson = redisson;
        // Plain text both ways: the default codec would wrap the arguments, and the token must reach Lua as digits.
        this.script = redisson.getScript(StringCodec.INSTANCE);
    }

    /** A fence on the Redis that {@code redisson} connects to (single server, sentinel, replicated or cluster). */
    public static RedisFence on(RedissonClient redisson) {
        return new RedisFence(Objects.requireNonNull(redisson, "redisson"));
    }

    /**
     * Stores {@code value} under {@code key} with {@code token}, if the stored token is lower or there is none.
     *
     * @param key the Redis key of the hash, e.g. {@code price:A-42}
     * @param value the value, as text (serialise anything else first)
     * @param token the writer's fencing token ({@code LockContext.token()}), from 1 to {@link #MAX_TOKEN}
     * @throws StaleTokenException when the stored token is {@code token} or higher: a newer holder (or this token) has
     *     written the key, and nothing was written now
     * @throws IllegalArgumentException when the token is outside 1 to {@link #MAX_TOKEN}
     * @throws org.redisson.client.RedisException when Redis refuses the script, e.g. when the key holds something else
     *     than such a hash, or its fence field is not a number
     */
    public void set(String key, String value, long token) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (token < 1 || token > MAX_TOKEN) {
            throw new IllegalArgumentException("Invalid fencing token " + token + " for Redis key " + key
                    + ": RedisFence takes tokens from 1 to " + MAX_TOKEN + " (2^53 - 1), which Lua compares exactly."
                    + " Padlock's FENCED tokens (LockContext.token()) stay in that range.");
        }
        String seen = script.eval(
                key,
                RScript.Mode.READ_WRITE,
                SET_SCRIPT,
                RScript.ReturnType.VALUE,
                List.of(key),
                value,
                Long.toString(token));
        if (seen != null) {
            throw new StaleTokenException("Redis", key, token, Long.parseLong(seen));
        }
    }

    /** The value under {@code key} and the token that wrote it; empty when there is none. One round trip. */
    public Optional<FencedValue> get(String key) {
        Map<String, String> fields = redisson.<String, String>getMap(
                        Objects.requireNonNull(key, "key"), StringCodec.INSTANCE)
                .getAll(Set.of(VALUE_FIELD, FENCE_FIELD));
        String value = fields.get(VALUE_FIELD);
        String fence = fields.get(FENCE_FIELD);
        return value == null || fence == null
                ? Optional.empty()
                : Optional.of(new FencedValue(value, Long.parseLong(fence)));
    }
}
