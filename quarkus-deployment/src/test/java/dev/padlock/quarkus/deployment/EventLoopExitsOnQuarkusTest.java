package dev.padlock.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockLost;
import dev.padlock.Locked;
import io.quarkus.test.QuarkusExtensionTest;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On a Vert.x event loop, a CompletionStage call releases its lock on every exit without blocking the loop: the
 * caller gives up (its stage bounded by {@code orTimeout}) while the lock is still awaited; the method throws an
 * {@code Error}; the method throws while Redis is slow to answer the release.
 */
class EventLoopExitsOnQuarkusTest {

    @RegisterExtension
    static final QuarkusExtensionTest app = new QuarkusExtensionTest()
            .withApplicationRoot(jar -> jar.addClasses(Work.class, Losses.class, TestRedis.class))
            .overrideConfigKey("padlock.redis.address", TestRedis.uri());

    static final Vertx VERTX = Vertx.vertx();

    @AfterAll
    static void closeVertx() throws Exception {
        VERTX.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @ApplicationScoped
    public static class Work {
        final AtomicInteger bodies = new AtomicInteger();
        final CompletableFuture<Boolean> heldWhenTheLoopRanNext = new CompletableFuture<>();

        public int bodies() {
            return bodies.get();
        }

        /** Whether the lock was still held when the event loop ran the task the body queued on it. */
        public CompletableFuture<Boolean> heldWhenTheLoopRanNext() {
            return heldWhenTheLoopRanNext;
        }

        @Locked(value = "loop-abandoned", waitTime = "10s")
        public CompletionStage<String> awaited() {
            bodies.incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        final AtomicInteger windowedBodies = new AtomicInteger();

        public int windowedBodies() {
            return windowedBodies.get();
        }

        @Locked(value = "loop-cancelled-window", waitTime = "10s")
        public CompletionStage<String> windowed() {
            windowedBodies.incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        @Locked(value = "loop-lost")
        public CompletionStage<String> losesItsLock() throws IOException {
            resp("DEL", "padlock:loop-lost"); // as if its lease had run out
            return null;
        }

        @Locked(value = "loop-error")
        public CompletionStage<String> error() {
            throw new AssertionError("the body broke");
        }

        @Locked(value = "loop-slow-release")
        public CompletionStage<String> throwsWhileRedisIsPaused() throws IOException {
            CompletableFuture<Boolean> held = heldWhenTheLoopRanNext;
            // Runs on this event loop as soon as the loop is free again: after the release, if the release blocks it.
            Vertx.currentContext().runOnContext(ignored -> {
                try {
                    held.complete(":1".equals(resp("EXISTS", "padlock:loop-slow-release")));
                } catch (IOException e) {
                    held.completeExceptionally(e);
                }
            });
            resp("CLIENT", "PAUSE", "2000", "WRITE"); // reads still answer; the release waits 2 s
            throw new IllegalStateException("the body failed");
        }
    }

    @ApplicationScoped
    public static class Losses {
        final List<String> threads = new CopyOnWriteArrayList<>();

        void record(@Observes LockLost loss) {
            threads.add(Thread.currentThread().getName());
        }

        public List<String> threads() {
            return threads;
        }
    }

    /** One command on a fresh connection to the test Redis; the first line of the reply. */
    static String resp(String... args) throws IOException {
        URI uri = URI.create(TestRedis.uri());
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            StringBuilder command = new StringBuilder("*" + args.length + "\r\n");
            for (String arg : args) {
                command.append('$')
                        .append(arg.length())
                        .append("\r\n")
                        .append(arg)
                        .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(command.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != -1 && c != '\r'; c = in.read()) {
                line.append((char) c);
            }
            return line.toString();
        }
    }

    @Inject
    Work work;

    @Inject
    Losses losses;

    private static boolean eventually(Check condition) throws Exception {
        for (int i = 0; i < 200; i++) {
            if (condition.holds()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }

    private static <T> T onEventLoop(java.util.function.Supplier<T> action) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Context context = VERTX.getOrCreateContext();
        context.runOnContext(ignored -> {
            try {
                result.complete(action.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aCallerThatGivesUpWhileTheLockIsAwaitedLeavesNothingHeld() throws Exception {
        // Another application holds the key for 1.5 s (a Redisson lock hash of a foreign owner, with its lease).
        resp("HSET", "padlock:loop-abandoned", "another-application:1", "1");
        resp("PEXPIRE", "padlock:loop-abandoned", "1500");
        CompletableFuture<String> bounded =
                onEventLoop(() -> work.awaited().toCompletableFuture().orTimeout(300, TimeUnit.MILLISECONDS));
        assertThat(catchThrowable(() -> bounded.get(10, TimeUnit.SECONDS))).hasCauseInstanceOf(TimeoutException.class);
        Thread.sleep(1500 + 3000); // the holder's lease ends; the abandoned acquisition gets the key meanwhile
        assertThat(resp("EXISTS", "padlock:loop-abandoned"))
                .as("the key is not held by the abandoned call")
                .isEqualTo(":0");
        assertThat(work.bodies()).as("the method never ran").isZero();
    }

    @Test
    void anErrorThrownOnTheEventLoopCompletesTheCallersStage() throws Exception {
        CompletableFuture<String> stage = onEventLoop(() -> work.error().toCompletableFuture());
        Throwable outcome = catchThrowable(() -> stage.get(10, TimeUnit.SECONDS));
        assertThat(outcome).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(AssertionError.class);
        assertThat(resp("EXISTS", "padlock:loop-error")).isEqualTo(":0");
    }

    @Test
    void aSlowReleaseDoesNotHoldUpTheEventLoop() throws Exception {
        CompletableFuture<String> stage = onEventLoop(() -> {
            try {
                return work.throwsWhileRedisIsPaused().toCompletableFuture();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(work.heldWhenTheLoopRanNext().get(10, TimeUnit.SECONDS))
                .as("the loop ran its next task while the release still waited for Redis")
                .isTrue();
        assertThat(catchThrowable(() -> stage.get(10, TimeUnit.SECONDS)))
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(resp("EXISTS", "padlock:loop-slow-release")).isEqualTo(":0");
    }

    @Test
    void aCallerThatCancelsJustAfterTheLockWasTakenLeavesNothingHeld() throws Exception {
        CountDownLatch loopFree = new CountDownLatch(1);
        CompletableFuture<String> stage;
        try {
            stage = onEventLoop(() -> {
                // Keeps this event loop busy once this task ends: the continuation after the acquisition queues
                // behind it. Queued before the call, so that an acquisition answered at once (before this task ends)
                // cannot queue its continuation first, which on a busy machine it did: the method then ran and
                // released before the test could see the lock.
                Vertx.currentContext().runOnContext(ignored -> {
                    try {
                        loopFree.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                return work.windowed().toCompletableFuture();
            });
            assertThat(eventually(() -> ":1".equals(resp("EXISTS", "padlock:loop-cancelled-window"))))
                    .as("the lock is taken")
                    .isTrue();
            assertThat(stage.cancel(true))
                    .as("cancelled before the method could start")
                    .isTrue();
        } finally {
            loopFree.countDown();
        }
        assertThat(eventually(() -> ":0".equals(resp("EXISTS", "padlock:loop-cancelled-window"))))
                .as("the lock taken for the cancelled call is released")
                .isTrue();
        assertThat(work.windowedBodies()).as("the method never ran").isZero();
    }

    @Test
    void lockLostObserversAreNotCalledOnTheEventLoop() throws Exception {
        CompletableFuture<String> stage = onEventLoop(() -> {
            try {
                return work.losesItsLock().toCompletableFuture();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(stage.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(eventually(() -> !losses.threads().isEmpty()))
                .as("the loss is reported")
                .isTrue();
        assertThat(losses.threads()).singleElement().asString().doesNotContain("eventloop");
    }
}
