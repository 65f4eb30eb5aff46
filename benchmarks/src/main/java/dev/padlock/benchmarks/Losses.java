package dev.padlock.benchmarks;

import dev.padlock.LockLost;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the {@link LockLost} events of the application's calls: a hot-key run without faults must report none (a
 * loss there is a false one, or a hand-off gone wrong), so the multi-JVM rows report it and count it against the goal.
 */
@ApplicationScoped
public class Losses {

    private final AtomicLong lost = new AtomicLong();

    void lost(@Observes LockLost loss) {
        lost.incrementAndGet();
    }

    long count() {
        return lost.get();
    }
}
