package dev.padlock.cdi.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.Locked;
import dev.padlock.cdi.Deployment;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisServer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The caller's stage completes on Padlock's threads (never on Redisson's I/O threads). A burst of completions whose
 * dependent actions block does not get a thread each: they queue for a few threads. A dependent that waits for
 * another Padlock stage does not starve that stage of a thread, though (no deadlock).
 */
@ExtendWith(RedisExtension.class)
class CompletionThreadsTest {

    private static final int CALLS = 200;

    @ApplicationScoped
    public static class Jobs {
        @Locked(value = "burst", key = "{0}", waitTime = "10s")
        public CompletionStage<Integer> job(int n, CompletableFuture<Integer> work) {
            return work;
        }
    }

    @Test
    void blockingDependentsOfManyCompletionsShareAFewThreads(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Jobs.class)) {
            Jobs jobs = app.bean(Jobs.class);
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            AtomicInteger entered = new AtomicInteger();
            CountDownLatch unblock = new CountDownLatch(1);
            List<CompletableFuture<Integer>> works = new ArrayList<>();
            List<CompletableFuture<Void>> dependents = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                CompletableFuture<Integer> work = new CompletableFuture<>();
                works.add(work);
                dependents.add(jobs.job(i, work).toCompletableFuture().thenRun(() -> {
                    threads.add(Thread.currentThread());
                    entered.incrementAndGet();
                    try {
                        unblock.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            works.forEach(work -> work.complete(1));
            // Wait until every dependent runs, or none has started for a second: the rest are queued.
            int seen = -1;
            while (entered.get() != seen && entered.get() < CALLS) {
                seen = entered.get();
                Thread.sleep(1000);
            }
            int blockedAtOnce = threads.size();
            unblock.countDown();
            CompletableFuture.allOf(dependents.toArray(CompletableFuture[]::new))
                    .get(60, TimeUnit.SECONDS);
            assertThat(blockedAtOnce)
                    .as("threads running blocked dependents at once, for " + CALLS + " completions")
                    .isPositive()
                    .isLessThanOrEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()));
        }
    }

    @Test
    void aDependentWaitingForAnotherPadlockStageDoesNotDeadlock(RedisServer redis) throws Exception {
        try (Deployment app = Deployment.start(Map.of("padlock.redis.address", redis.uri()), Jobs.class)) {
            Jobs jobs = app.bean(Jobs.class);
            int pairs = 40; // more than the threads completing stages
            List<CompletableFuture<Integer>> laterWorks = new ArrayList<>();
            List<CompletableFuture<Integer>> waiters = new ArrayList<>();
            List<CompletableFuture<Integer>> firstWorks = new ArrayList<>();
            for (int i = 0; i < pairs; i++) {
                CompletableFuture<Integer> later = new CompletableFuture<>();
                laterWorks.add(later);
                CompletableFuture<Integer> laterStage =
                        jobs.job(1000 + i, later).toCompletableFuture();
                CompletableFuture<Integer> first = new CompletableFuture<>();
                firstWorks.add(first);
                waiters.add(jobs.job(i, first).toCompletableFuture().thenApply(v -> v + laterStage.join()));
            }
            firstWorks.forEach(work -> work.complete(1));
            Thread.sleep(500); // let the waiters block
            laterWorks.forEach(work -> work.complete(1));
            CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            assertThat(waiters).allSatisfy(w -> assertThat(w.join()).isEqualTo(2));
        }
    }
}
