package dev.padlock.benchmarks;

import dev.padlock.core.turns.LocalTurns;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the local queue in front of Redis costs an uncontended call on its own: taking the turn for a key no
 * other call holds, and passing it on with nobody waiting. Each thread has its own key, as in the benchmark's
 * own-keys rows. Run with {@code java -cp benchmarks/target/padlock-benchmarks.jar org.openjdk.jmh.Main
 * LocalTurnsBenchmark -t 1,8 -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LocalTurnsBenchmark {

    private final LocalTurns<Object> turns = new LocalTurns<>();

    @State(Scope.Thread)
    public static class OwnKey {
        private static final AtomicInteger NEXT = new AtomicInteger();
        String key;

        @Setup
        public void pick() {
            key = "padlock:bench:" + NEXT.incrementAndGet();
        }
    }

    @Benchmark
    public boolean takeAndPassATurn(OwnKey own) {
        boolean granted = turns.await(own.key, 30_000).getNow(false);
        turns.pass(own.key);
        return granted;
    }
}
