package dev.padlock.cdi.leases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A Redis restarted without persistence has forgotten every lock. With the default 30 s watchdog, a holder used to
 * hear of it at its next renewal, up to 10 s after the server was back; Padlock now sees the server's new
 * {@code run_id} as soon as it reaches the server again and reports the loss then, as {@code RESTART}. The control
 * drops the connections of a server that did not restart: nothing is lost, nothing is said.
 */
@ExtendWith(RedisExtension.class)
public class RestartSeenAtReconnectTest {

    @ApplicationScoped
    public static class Work {
        @Locked("held")
        public String holdUntil(CountDownLatch done) throws InterruptedException {
            done.await(60, TimeUnit.SECONDS);
            return "done";
        }
    }

    @Test
    void aServerRestartedUnderAHeldLockIsReportedWhenItIsBackNotAtTheNextRenewal(RedisServer redis) throws Exception {
        // the default watchdog: 30 s lease, a renewal every 10 s
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri()), Work.class, LeaseLossTest.Losses.class)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call = hold(app.bean(Work.class), done);
            try {
                awaitKey(redis, "padlock:held");
                Thread.sleep(300); // the watch has read the server's run_id

                // Down for 2 s, then started with no data (no persistence: it has forgotten the lock). By then
                // Redisson's own reconnection waits up to 1.6 s between attempts; Padlock asks every 200 ms.
                redis.stop();
                Thread.sleep(2_000);
                redis.start();
                long back = System.nanoTime();
                while (losses.seen().isEmpty() && System.nanoTime() - back < TimeUnit.SECONDS.toNanos(6)) {
                    Thread.sleep(5);
                }
                long seenAfter = System.nanoTime() - back;

                assertThat(losses.seen()).singleElement().satisfies(loss -> {
                    assertThat(loss.lockKey()).isEqualTo("padlock:held");
                    assertThat(loss.detectedBy()).isEqualTo(LockLost.Detection.RESTART);
                    assertThat(loss.describe()).contains("restarted");
                });
                assertThat(redis.commandStats().calls("evalsha")
                                + redis.commandStats().calls("eval"))
                        .as("no renewal reached the restarted server before the loss was reported")
                        .isZero();
                assertThat(call).as("reported while the method runs").isNotDone();
                System.out.printf(
                        "RESTART reported %d ms after the restarted server answered%n",
                        TimeUnit.NANOSECONDS.toMillis(seenAfter));
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(losses.seen()).as("reported once, not again at release").hasSize(1);
        }
    }

    /** The application's own client, a normal-scoped bean: the container hands out a proxy of it. */
    @ApplicationScoped
    public static class ClientProducer {
        @Produces
        @ApplicationScoped
        RedissonClient client() {
            Config config = new Config();
            config.useSingleServer()
                    .setAddress(ConfigProvider.getConfig().getValue("test.redis.address", String.class));
            return Redisson.create(config);
        }

        void close(@Disposes RedissonClient client) {
            client.shutdown();
        }
    }

    /**
     * The same with the application's own client, which Weld hands out as a client proxy: Padlock watches the client
     * behind it (a proxy shows none of Redisson's connections).
     */
    @Test
    void aRestartIsSeenWithTheApplicationsOwnClientToo(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("test.redis.address", redis.uri()),
                Work.class,
                LeaseLossTest.Losses.class,
                ClientProducer.class)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call = hold(app.bean(Work.class), done);
            try {
                awaitKey(redis, "padlock:held");
                Thread.sleep(300);

                redis.restart();
                for (int i = 0; i < 300 && losses.seen().isEmpty(); i++) {
                    Thread.sleep(20);
                }

                assertThat(losses.seen()).singleElement().satisfies(loss -> assertThat(loss.detectedBy())
                        .isEqualTo(LockLost.Detection.RESTART));
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
        }
    }

    /**
     * The key a restarted server forgot is not kept for a hand-off in this application: its local turn is passed on when
     * the loss is reported, so a call of the same application that comes next takes the key from Redis at once, while
     * the holder that lost it still runs. (Without the report, that call queues behind the holder until it returns.)
     */
    @Test
    void theNextCallOfTheSameApplicationTakesTheKeyFromRedisNotByHandOff(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri()), Work.class, LeaseLossTest.Losses.class)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            Work work = app.bean(Work.class);
            CountDownLatch first = new CountDownLatch(1);
            CountDownLatch second = new CountDownLatch(1);
            CompletableFuture<String> holder = hold(work, first);
            CompletableFuture<String> next = null;
            try {
                awaitKey(redis, "padlock:held");
                Thread.sleep(300);

                redis.restart();
                for (int i = 0; i < 300 && losses.seen().isEmpty(); i++) {
                    Thread.sleep(20);
                }
                assertThat(losses.seen()).singleElement().satisfies(loss -> assertThat(loss.detectedBy())
                        .isEqualTo(LockLost.Detection.RESTART));

                // Redisson's own connections come back on their own back-off, which this test does not measure
                for (int i = 0; i < 1_000 && clientsConnected(redis) < 2; i++) {
                    Thread.sleep(20);
                }
                next = hold(work, second);
                for (int i = 0; i < 500 && !next.isDone(); i++) {
                    if (Long.valueOf(1).equals(redis.command("EXISTS", "padlock:held"))) {
                        break; // taken again, from the restarted server
                    }
                    Thread.sleep(20);
                }
                CompletableFuture<String> ran = next;
                assertThat(redis.command("EXISTS", "padlock:held"))
                        .as(
                                "taken again by the next call; the call: %s",
                                ran.isDone()
                                        ? ran.handle((v, e) -> e == null ? v : e.toString())
                                                .join()
                                        : "waiting")
                        .isEqualTo(1L);

                assertThat(holder).as("the holder that lost the key still runs").isNotDone();
                assertThat(next).as("the next call runs under the key it took").isNotDone();
            } finally {
                first.countDown();
                second.countDown();
            }
            assertThat(holder.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(losses.seen())
                    .as("the next call held what it ran under: no loss found at its start or its release")
                    .hasSize(1);
        }
    }

    @Test
    void controlConnectionsDroppedByAServerThatDidNotRestartLoseNothing(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(
                Map.of("padlock.redis.address", redis.uri()), Work.class, LeaseLossTest.Losses.class)) {
            LeaseLossTest.Losses losses = app.bean(LeaseLossTest.Losses.class);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<String> call = hold(app.bean(Work.class), done);
            try {
                awaitKey(redis, "padlock:held");
                Thread.sleep(300);

                long before = clientsConnected(redis);
                redis.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
                // the watch asks the server again once it is reached: give it the time a restart takes to be seen
                Thread.sleep(1_500);

                assertThat(before)
                        .as("Padlock's connections were there to drop")
                        .isPositive();
                assertThat(losses.seen()).as("the same server: nothing lost").isEmpty();
                assertThat(redis.command("EXISTS", "padlock:held")).isEqualTo(1L);
            } finally {
                done.countDown();
            }
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(losses.seen()).isEmpty();
        }
    }

    /**
     * Each call on a thread of its own: on a 2-core machine, JDK 25's common pool runs one task at a time, and a second
     * call would wait for the first to return before it even started.
     */
    private static CompletableFuture<String> hold(Work work, CountDownLatch done) {
        return CompletableFuture.supplyAsync(() -> uncheck(() -> work.holdUntil(done)), task -> {
            Thread thread = new Thread(task, "restart-test-call");
            thread.setDaemon(true);
            thread.start();
        });
    }

    private static long clientsConnected(RedisServer redis) {
        String info = String.valueOf(redis.command("INFO", "clients"));
        return info.lines()
                .filter(line -> line.startsWith("connected_clients:"))
                .mapToLong(line -> Long.parseLong(
                        line.substring("connected_clients:".length()).trim()))
                .findFirst()
                .orElse(0);
    }

    private static void awaitKey(RedisServer redis, String key) throws InterruptedException {
        for (int i = 0; i < 400; i++) {
            if (Long.valueOf(1).equals(redis.command("EXISTS", key))) {
                return;
            }
            Thread.sleep(25);
        }
        throw new AssertionError(key + " was never taken");
    }

    private interface Body<T> {
        T run() throws Exception;
    }

    private static <T> T uncheck(Body<T> body) {
        try {
            return body.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
