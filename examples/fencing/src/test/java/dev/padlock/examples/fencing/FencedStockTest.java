package dev.padlock.examples.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockLost;
import dev.padlock.cdi.PadlockExtension;
import dev.padlock.examples.fencing.ShelfCount.Recorded;
import dev.padlock.fencing.StaleTokenException;
import dev.padlock.testing.Redis;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.h2.jdbcx.JdbcDataSource;
import org.jboss.weld.environment.se.WeldContainer;
import org.jboss.weld.junit5.WeldInitiator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RedissonClient;

/**
 * What a token-checking store adds to a {@code FENCED} lock (docs/reference/failover.md, last row). A holder counts a shelf and
 * pauses past its 1 s lease, as a GC pause would; a newer holder takes the key, counts and records; then the paused
 * holder resumes and records its stale count. Padlock tells the paused holder it lost the lock, but only a check in
 * the store can stop a write the holder is already making. With the check, the newer count stays; without it (the
 * control), the stale count overwrites it. And a Redis restarted without its data does not lock the store against the
 * next holder, as Redisson's own token counter would.
 */
@ExtendWith(RedisExtension.class)
class FencedStockTest {

    private static final int STALE_COUNT = 7;
    private static final int NEWER_COUNT = 12;

    private static final JdbcDataSource DB = new JdbcDataSource();

    @BeforeAll
    static void createTable() throws Exception {
        DB.setURL("jdbc:h2:mem:fencing;DB_CLOSE_DELAY=-1");
        StockTable.checkingTokens(DB).create();
    }

    /** The store of the application under test: with the token check. */
    public static class CheckingStore {
        @Produces
        StockTable stock() {
            return StockTable.checkingTokens(DB);
        }
    }

    /** The control's store: the same table, last writer wins. */
    public static class UncheckedStore {
        @Produces
        StockTable stock() {
            return StockTable.withoutTokenCheck(DB);
        }
    }

    /** The losses Padlock reported. */
    @ApplicationScoped
    public static class Losses {
        private final List<LockLost> seen = new CopyOnWriteArrayList<>();

        void on(@Observes LockLost lost) {
            seen.add(lost);
        }

        /** A copy: the container hands out a proxy, whose own fields are empty. */
        public List<LockLost> seen() {
            return List.copyOf(seen);
        }
    }

    @Test
    void theStoreKeepsTheNewerHoldersCountAndRejectsTheStaleOne(RedisServer redis) throws Exception {
        String sku = "sku-fenced";
        StockTable.checkingTokens(DB).add(sku, 0);

        Race race = race(redis, CheckingStore.class, sku);

        assertThat(race.stale.token()).isLessThan(race.newer.token());
        assertThat(race.newer.written()).as("the newer holder's write").isTrue();
        assertThat(race.stale.written())
                .as("the stale holder's write, token %d after %d", race.stale.token(), race.newer.token())
                .isFalse();
        assertThat(race.stale.refusal()).satisfies(refused -> {
            assertThat(refused.getKey()).isEqualTo(sku);
            assertThat(refused.getToken()).isEqualTo(race.stale.token());
            assertThat(refused.getSeenToken()).isEqualTo(race.newer.token());
            assertThat(refused)
                    .hasMessageStartingWith("Stale fencing token " + race.stale.token() + " for key " + sku
                            + " in table stock: the store has already accepted token " + race.newer.token())
                    .hasMessageContaining("do not act as if it happened");
        });
        assertThat(StockTable.checkingTokens(DB).quantity(sku)).isEqualTo(NEWER_COUNT);
        assertThat(race.losses)
                .as("Padlock told the paused holder, when its lease ended")
                .singleElement()
                .satisfies(loss -> assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.DEADLINE));
    }

    @Test
    void withoutTheCheckTheStaleCountOverwritesTheNewerOne(RedisServer redis) throws Exception {
        String sku = "sku-unchecked";
        StockTable.withoutTokenCheck(DB).add(sku, 0);

        Race race = race(redis, UncheckedStore.class, sku);

        assertThat(race.stale.token()).isLessThan(race.newer.token());
        assertThat(race.newer.written()).isTrue();
        assertThat(race.stale.written()).as("the stale holder's write").isTrue();
        assertThat(StockTable.withoutTokenCheck(DB).quantity(sku))
                .as("the stale count won, although Padlock reported the loss")
                .isEqualTo(STALE_COUNT);
        assertThat(race.losses).singleElement();
    }

    private record Race(Recorded stale, Recorded newer, List<LockLost> losses) {}

    /**
     * The stale holder enters and pauses until the newer one has recorded; the newer one waits for the key (Padlock
     * lets it ask Redis at the stale holder's deadline, and Redis grants it once the lease has expired there).
     */
    private static Race race(RedisServer redis, Class<?> store, String sku) throws Exception {
        redis.flushAll();
        return withApp(redis, store, app -> {
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                ShelfCount shelf = app.select(ShelfCount.class).get();
                CountDownLatch staleCounting = new CountDownLatch(1);
                CountDownLatch newerRecorded = new CountDownLatch(1);

                CompletableFuture<Recorded> stale = CompletableFuture.supplyAsync(
                        () -> call(() -> shelf.record(sku, () -> {
                            staleCounting.countDown();
                            await(newerRecorded); // paused: well past its 1 s lease
                            return STALE_COUNT;
                        })),
                        threads);
                assertThat(staleCounting.await(30, TimeUnit.SECONDS)).isTrue();
                Recorded newer = CompletableFuture.supplyAsync(
                                () -> call(() -> shelf.record(sku, () -> NEWER_COUNT)), threads)
                        .get(30, TimeUnit.SECONDS);
                newerRecorded.countDown();
                return new Race(
                        stale.get(30, TimeUnit.SECONDS),
                        newer,
                        app.select(Losses.class).get().seen());
            } finally {
                threads.shutdownNow();
            }
        });
    }

    /**
     * A Redis restarted without its data between two holders: the next holder's token is still larger than every
     * token before (Padlock mints tokens from the server's clock), so the store takes its count. The control is
     * Redisson's own fenced lock on the same server, whose counter starts again at 1: the same store refuses that
     * holder, and would refuse every later one until someone raised the counter by hand.
     */
    @Test
    void aRedisRestartedWithoutItsDataLeavesTheStoreOpenToTheNextHolder() throws Exception {
        String sku = "sku-restart";
        String controlSku = "sku-restart-control";
        StockTable stock = StockTable.checkingTokens(DB);
        stock.add(sku, 0);
        stock.add(controlSku, 0);
        try (RedisServer redis = Redis.startServer()) {
            RedissonClient raw = rawClient(redis);
            try {
                withApp(redis, CheckingStore.class, app -> {
                    ShelfCount shelf = app.select(ShelfCount.class).get();
                    Recorded before = shelf.record(sku, () -> 5);
                    stock.write(controlSku, 5, redissonToken(raw));
                    long controlBefore = redissonToken(raw);
                    stock.write(controlSku, 6, controlBefore);

                    redis.restart();

                    Recorded after = afterReconnect(() -> shelf.record(sku, () -> 8));
                    assertThat(after.written())
                            .as("the next holder's count, token %d after %d", after.token(), before.token())
                            .isTrue();
                    assertThat(stock.quantity(sku)).isEqualTo(8);

                    long controlAfter = redissonToken(raw);
                    assertThat(controlAfter)
                            .as("the control: Redisson's counter started again")
                            .isEqualTo(1L);
                    assertThatThrownBy(() -> stock.write(controlSku, 9, controlAfter))
                            .as("the store refuses the control's next holder: stuck")
                            .isInstanceOf(StaleTokenException.class);
                    assertThat(stock.quantity(controlSku)).isEqualTo(6);
                    return null;
                });
            } finally {
                raw.shutdown();
            }
        }
    }

    private interface InApp<T> {
        T run(WeldContainer app) throws Exception;
    }

    /** Runs {@code body} in the example's application on {@code redis}, with {@code store} as its table. */
    private static <T> T withApp(RedisServer redis, Class<?> store, InApp<T> body) throws Exception {
        Config config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(Map.of("padlock.redis.address", redis.uri()), "test", 500))
                .build();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        resolver.releaseConfig(resolver.getConfig(loader));
        resolver.registerConfig(config, loader);
        WeldContainer app = null;
        try {
            app = WeldInitiator.createWeld()
                    .addExtension(new PadlockExtension())
                    .addBeanClasses(ShelfCount.class, Losses.class, store)
                    .initialize();
            return body.run(app);
        } finally {
            if (app != null) {
                app.shutdown();
            }
            resolver.releaseConfig(config);
        }
    }

    /** Retried while Redisson still holds a connection the restart closed. */
    private static <T> T afterReconnect(Call<T> call) throws Exception {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                return call.run();
            } catch (RuntimeException e) {
                if (System.nanoTime() - giveUp > 0) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static RedissonClient rawClient(RedisServer redis) {
        org.redisson.config.Config config = new org.redisson.config.Config();
        config.useSingleServer().setAddress(redis.uri());
        return Redisson.create(config);
    }

    /** A token of Redisson's own fenced lock (its per-key counter), taken and released at once. */
    private static long redissonToken(RedissonClient raw) throws Exception {
        return afterReconnect(() -> {
            RFencedLock lock = raw.getFencedLock("stock-control");
            Long token = lock.tryLockAndGetToken(5, 10, TimeUnit.SECONDS);
            lock.unlock();
            return token;
        });
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> T call(Call<T> call) {
        try {
            return call.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the newer holder never recorded");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
