package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.config.Config;

/** One writer at a time on a real Redis: what a write stores, what it refuses, and what each refusal says. */
@ExtendWith(RedisExtension.class)
class RedisFenceTest {

    private static RedissonClient redisson;
    private static RedisServer redis;
    private static RedisFence prices;

    @BeforeAll
    static void connect(RedisServer server) {
        redis = server;
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri());
        redisson = Redisson.create(config);
        prices = RedisFence.on(redisson);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown();
    }

    @Test
    void aHigherTokenStoresTheValueWithItsToken() {
        prices.set("price:A-1", "9.90", 5);
        assertThat(prices.get("price:A-1")).contains(new FencedValue("9.90", 5));

        prices.set("price:A-1", "8.50", 7);
        assertThat(prices.get("price:A-1")).contains(new FencedValue("8.50", 7));
        assertThat(redis.command("HGETALL", "price:A-1")).asList().containsExactly("value", "8.50", "fence", "7");
    }

    @Test
    void anAbsentKeyTakesAnyTokenAndReadsAsEmpty() {
        assertThat(prices.get("price:A-2")).isEmpty();

        prices.set("price:A-2", "1.00", 1);

        assertThat(prices.get("price:A-2")).contains(new FencedValue("1.00", 1));
    }

    @Test
    void anOlderTokenIsRefusedNamingTheKeyAndBothTokens() {
        prices.set("price:A-3", "newer", 9);

        StaleTokenException refused =
                catchThrowableOfType(StaleTokenException.class, () -> prices.set("price:A-3", "older", 4));

        assertThat(refused.getStore()).isEqualTo("Redis");
        assertThat(refused.getKey()).isEqualTo("price:A-3");
        assertThat(refused.getToken()).isEqualTo(4);
        assertThat(refused.getSeenToken()).isEqualTo(9);
        assertThat(refused)
                .hasMessage("Stale fencing token 4 for key price:A-3 in Redis: the store has already accepted token 9"
                        + " from a newer holder: this writer's lock was taken over (its lease ran out while it was"
                        + " paused or cut off from Redis). The write was not made: do not act as if it happened; stop,"
                        + " and let the newer write stand (take the lock again for a new token if the work still needs"
                        + " doing).");
        assertThat(prices.get("price:A-3")).contains(new FencedValue("newer", 9));
    }

    @Test
    void aTokenWritesAKeyOnlyOnce() {
        prices.set("price:A-4", "first", 9);

        StaleTokenException refused =
                catchThrowableOfType(StaleTokenException.class, () -> prices.set("price:A-4", "again", 9));

        assertThat(refused.getSeenToken()).isEqualTo(9);
        assertThat(refused).hasMessageContaining("the store has already accepted this same token");
        assertThat(prices.get("price:A-4")).contains(new FencedValue("first", 9));
    }

    @Test
    void tokensNear2To52AreComparedExactlyAndStoredInDecimal() {
        long token = (1L << 52) + 1;

        prices.set("price:A-5", "newer", token + 1);
        StaleTokenException refused =
                catchThrowableOfType(StaleTokenException.class, () -> prices.set("price:A-5", "older", token));

        assertThat(refused.getSeenToken()).isEqualTo(token + 1);
        // Lua would print 4.5035996273705e+15 had the script formatted the number itself.
        assertThat(redis.command("HGET", "price:A-5", "fence")).isEqualTo("4503599627370498");
        assertThat(prices.get("price:A-5")).contains(new FencedValue("newer", 4_503_599_627_370_498L));
    }

    @Test
    void theHighestTokenLuaTellsApartIsTakenAndTheNextRefused() {
        prices.set("price:A-6", "below", RedisFence.MAX_TOKEN - 1);
        prices.set("price:A-6", "last", RedisFence.MAX_TOKEN);
        assertThat(redis.command("HGET", "price:A-6", "fence")).isEqualTo("9007199254740991");

        assertThatThrownBy(() -> prices.set("price:A-6", "beyond", RedisFence.MAX_TOKEN + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid fencing token 9007199254740992 for Redis key price:A-6: RedisFence takes tokens"
                        + " from 1 to 9007199254740991 (2^53 - 1), which Lua compares exactly. Padlock's FENCED tokens"
                        + " (LockContext.token()) stay in that range.");
        assertThatThrownBy(() -> prices.set("price:A-6", "none", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(prices.get("price:A-6")).contains(new FencedValue("last", RedisFence.MAX_TOKEN));
    }

    @Test
    void aFenceThatIsNotANumberIsAnErrorNamingTheKey() {
        redis.command("HSET", "price:A-7", "value", "x", "fence", "soon");

        assertThatThrownBy(() -> prices.set("price:A-7", "y", 3))
                .isInstanceOf(RedisException.class)
                .hasMessageContaining("the fence field of price:A-7 is not a number: soon");
        assertThat(redis.command("HGET", "price:A-7", "value")).isEqualTo("x");
    }
}
