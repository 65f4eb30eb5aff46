package dev.padlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.fencing.ShuffledWrites.Outcome;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Eight threads write one Redis key with shuffled tokens ({@link ShuffledWrites}). With {@link RedisFence} the value
 * never goes back to an older token; the control runs the same writes as a plain {@code HSET}, and an older token
 * wins.
 */
@ExtendWith(RedisExtension.class)
class RedisFenceConcurrencyTest {

    private static RedissonClient redisson;

    @BeforeAll
    static void connect(RedisServer redis) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        redisson = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        redisson.shutdown();
    }

    @Test
    void concurrentWritesWithShuffledTokensEndOnTheHighestAndNeverGoBack() throws Exception {
        RedisFence fence = RedisFence.on(redisson);
        String key = "counter:checked";

        Outcome outcome = ShuffledWrites.run("RedisFence", new ShuffledWrites.Store() {
            @Override
            public boolean write(long token) {
                try {
                    fence.set(key, Long.toString(token), token);
                    return true;
                } catch (StaleTokenException refused) {
                    assertThat(refused.getSeenToken()).isGreaterThanOrEqualTo(token);
                    return false;
                }
            }

            @Override
            public long fence() {
                return fence.get(key).map(FencedValue::token).orElse(0L);
            }
        });

        assertThat(outcome.wentBack())
                .as("accepted writes older than one accepted before")
                .isZero();
        assertThat(outcome.roundsEndedBehind())
                .as("rounds after which the key held an older token than one accepted")
                .isZero();
        assertThat(outcome.finalFence()).isEqualTo(outcome.highest());
        assertThat(fence.get(key))
                .as("the value came with its token")
                .contains(new FencedValue(Long.toString(outcome.highest()), outcome.highest()));
        assertThat(outcome.accepted() + outcome.refused()).isEqualTo(ShuffledWrites.WRITES + 1);
        assertThat(outcome.accepted()).as("writes accepted besides the highest").isGreaterThan(1);
        assertThat(outcome.refused()).isPositive();
    }

    @Test
    void withoutTheCheckAnOlderTokenWins() throws Exception {
        RMap<String, String> hash = redisson.getMap("counter:unchecked", StringCodec.INSTANCE);

        Outcome outcome = ShuffledWrites.run("plain HSET (control)", new ShuffledWrites.Store() {
            @Override
            public boolean write(long token) {
                hash.putAll(Map.of(
                        RedisFence.VALUE_FIELD, Long.toString(token), RedisFence.FENCE_FIELD, Long.toString(token)));
                return true;
            }

            @Override
            public long fence() {
                return Long.parseLong(hash.getOrDefault(RedisFence.FENCE_FIELD, "0"));
            }
        });

        assertThat(outcome.refused()).isZero();
        assertThat(outcome.wentBack())
                .as("accepted writes older than one accepted before")
                .isPositive();
        assertThat(outcome.finalFence()).as("an older token won").isLessThan(outcome.highest());
    }
}
