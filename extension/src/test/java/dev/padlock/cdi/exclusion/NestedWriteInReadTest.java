package dev.padlock.cdi.exclusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.padlock.LockException;
import dev.padlock.LockNotAcquiredException;
import dev.padlock.LockType;
import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.cdi.Waits;
import dev.padlock.core.engine.PadlockEngine;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Finding E4 of engine review 2: a WRITE call nested in a READ call of the same key must not share the enclosing
 * read hold, since readers share it: the writer would run beside every other reader. Redisson never upgrades a read
 * lock to a write lock, so the nested call is refused at once, as misuse rather than contention, and its body never
 * runs. The reverse nesting, a READ call in a WRITE call of the same key, shares the write hold as before.
 *
 * <p>While a WRITE body runs, another thread calls a READ method of the same key, which records who is inside when
 * it enters. The controls show the detector: a reader enters beside an unlocked writer, and waits for a top-level
 * WRITE call.
 */
@ExtendWith(RedisExtension.class)
class NestedWriteInReadTest {

    private static final String KEY = "padlock:e4:k";

    /** Who is inside a writing body now. */
    static final Set<String> INSIDE = Collections.synchronizedSet(new LinkedHashSet<>());

    /** How many bodies of the locked {@code write} ran. */
    static final AtomicInteger WRITE_BODIES = new AtomicInteger();

    @ApplicationScoped
    public static class Reading {
        @Inject
        Writing writing;

        @Locked(value = "e4", key = "{id}", type = LockType.READ, waitTime = "10s")
        public void readThenWrite(String id, Runnable whileWriting) {
            writing.write(id, whileWriting);
        }

        /** Who was inside a writing body when this reader entered. */
        @Locked(value = "e4", key = "{id}", type = LockType.READ, waitTime = "10s")
        public List<String> read(String id) {
            synchronized (INSIDE) {
                return new ArrayList<>(INSIDE);
            }
        }
    }

    @ApplicationScoped
    public static class Writing {
        @Inject
        Reading reading;

        @Locked(value = "e4", key = "{id}", type = LockType.WRITE, waitTime = "10s")
        public void write(String id, Runnable body) {
            WRITE_BODIES.incrementAndGet();
            unlockedWrite(id, body);
        }

        public void unlockedWrite(String id, Runnable body) {
            INSIDE.add("writer");
            try {
                body.run();
            } finally {
                INSIDE.remove("writer");
            }
        }

        /** What a READ call nested in this WRITE call of the same key saw inside. */
        @Locked(value = "e4", key = "{id}", type = LockType.WRITE, waitTime = "10s")
        public List<String> writeThenRead(String id) {
            INSIDE.add("writer");
            try {
                return reading.read(id);
            } finally {
                INSIDE.remove("writer");
            }
        }
    }

    /** A thread per caller: the common pool may have a single thread on a small machine. */
    private ExecutorService threads;

    @BeforeEach
    void reset(RedisServer redis) {
        threads = Executors.newCachedThreadPool();
        redis.flushAll();
        INSIDE.clear();
        WRITE_BODIES.set(0);
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void aWriteNestedInAReadOfTheSameKeyNeverRunsBesideAnotherReader(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Reading reading = app.bean(Reading.class);
            OtherReader reader = new OtherReader();

            Throwable nested = catchThrowable(() ->
                    reading.readThenWrite("k", reader.whileWriting(reading, redis, app.bean(PadlockEngine.class))));

            assertThat(reader.seen())
                    .as("who the other reader saw inside (the nested write call threw: %s)", nested)
                    .isEmpty();
        }
    }

    @Test
    void aWriteNestedInAReadOfTheSameKeyIsRefusedAtOnceSayingWhy(RedisServer redis) {
        try (Deployment app = start(redis)) {
            Reading reading = app.bean(Reading.class);

            Throwable nested = catchThrowable(() -> reading.readThenWrite("k", () -> {}));

            assertThat(WRITE_BODIES.get())
                    .as("write bodies run (the nested write call threw: %s)", nested)
                    .isZero();
            assertThat(nested)
                    .as("refused as misuse, not as contention")
                    .isInstanceOf(LockException.class)
                    .isNotInstanceOf(LockNotAcquiredException.class)
                    .hasMessageMatching("(?is).*\\bread\\b.*\\bupgrad.*\\bwrite\\b.*");
            assertThat(redis.command("EXISTS", KEY))
                    .as("the read hold released")
                    .isEqualTo(0L);
        }
    }

    @Test
    void aReadNestedInAWriteOfTheSameKeySharesTheHoldAndRuns(RedisServer redis) {
        try (Deployment app = start(redis)) {
            Writing writing = app.bean(Writing.class);

            assertThat(writing.writeThenRead("k"))
                    .as("who the nested reader saw inside")
                    .containsExactly("writer");
            assertThat(redis.command("EXISTS", KEY))
                    .as("the write hold released")
                    .isEqualTo(0L);
        }
    }

    /** The control: the detector sees a writer that holds no lock. */
    @Test
    void controlAReaderEntersBesideAnUnlockedWriter(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Reading reading = app.bean(Reading.class);
            Writing writing = app.bean(Writing.class);
            OtherReader reader = new OtherReader();

            writing.unlockedWrite("k", reader.whileWriting(reading, redis, app.bean(PadlockEngine.class)));

            assertThat(reader.seen()).as("who the other reader saw inside").containsExactly("writer");
        }
    }

    /** The control: a WRITE call that is not nested keeps the reader out. */
    @Test
    void controlAReaderWaitsForATopLevelWriter(RedisServer redis) throws Exception {
        try (Deployment app = start(redis)) {
            Reading reading = app.bean(Reading.class);
            Writing writing = app.bean(Writing.class);
            OtherReader reader = new OtherReader();

            writing.write("k", reader.whileWriting(reading, redis, app.bean(PadlockEngine.class)));

            assertThat(reader.seen()).as("who the other reader saw inside").isEmpty();
            assertThat(WRITE_BODIES.get()).isEqualTo(1);
        }
    }

    private static Deployment start(RedisServer redis) {
        // a waiting reader that misses the unlock message (Redisson's subscription race, redisson#4744) tries again
        // when the key's time to live ends: a short lease keeps that well within its wait
        return Deployment.start(
                Map.of("padlock.redis.address", redis.uri(), "padlock.watchdog-timeout", "2s"),
                Reading.class,
                Writing.class);
    }

    /**
     * Another thread's READ call of the key, started from a writing body, which stays inside until that reader
     * entered or waits for the key.
     */
    private final class OtherReader {
        private final CompletableFuture<List<String>> saw = new CompletableFuture<>();
        private volatile boolean started;

        Runnable whileWriting(Reading reading, RedisServer redis, PadlockEngine engine) {
            return () -> {
                started = true;
                CompletableFuture.supplyAsync(() -> reading.read("k"), threads).whenComplete((seen, failure) -> {
                    if (failure != null) {
                        saw.completeExceptionally(failure);
                    } else {
                        saw.complete(seen);
                    }
                });
                Waits.poll(() -> saw.isDone() || readerWaits(redis, engine));
            };
        }

        /** Who it saw inside when it entered; nobody when no writing body ran to start it. */
        List<String> seen() throws Exception {
            return started ? saw.get(30, TimeUnit.SECONDS) : List.of();
        }
    }

    /** The reader waits for the key: subscribed in Redis to its unlock channel, or queued in the application. */
    private static boolean readerWaits(RedisServer redis, PadlockEngine engine) {
        List<?> channels = (List<?>) redis.command("PUBSUB", "CHANNELS", "*" + KEY + "*");
        return !channels.isEmpty() || engine.liveLocks().queues().stream().anyMatch(queue -> queue.waiting() > 0);
    }
}
