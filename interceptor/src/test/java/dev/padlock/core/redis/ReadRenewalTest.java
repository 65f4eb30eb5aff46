package dev.padlock.core.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A read lock is held by a reader only while its hold keys exist: Redisson's next unlock ignores a reader whose
 * hold keys lapsed (say after a long pause), even when another reader kept the shared hash alive. A renewal must
 * then answer "lost", not revive the hash.
 */
@ExtendWith(RedisExtension.class)
class ReadRenewalTest {

    @Test
    void aReaderWhoseHoldKeysLapsedIsNotRenewed(RedisServer redis) throws Exception {
        redis.flushAll();
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient client = Redisson.create(config);
        try {
            LockKind read = LockKind.of(LockType.READ);
            RLock mine = read.lock(client, "padlock:catalog");
            RLock others = read.lock(client, "padlock:catalog");
            assertThat(mine.tryLockAsync(0, 10_000, TimeUnit.MILLISECONDS, -11).get())
                    .isTrue();
            assertThat(others.tryLockAsync(0, 10_000, TimeUnit.MILLISECONDS, -12)
                            .get())
                    .isTrue();

            assertThat(read.renew(client, mine, -11, 10_000)
                            .toCompletableFuture()
                            .get())
                    .as("control: held, renewed")
                    .isTrue();

            String holdKey = "{padlock:catalog}:" + client.getId() + ":-11:rwlock_timeout:1";
            assertThat(redis.command("DEL", holdKey)).as("the hold key lapses").isEqualTo(1L);

            assertThat(read.renew(client, mine, -11, 10_000)
                            .toCompletableFuture()
                            .get())
                    .as("a reader without its hold keys holds nothing")
                    .isFalse();
            assertThat(read.renew(client, others, -12, 10_000)
                            .toCompletableFuture()
                            .get())
                    .as("the other reader still holds it")
                    .isTrue();
        } finally {
            client.shutdown();
        }
    }
}
