package dev.padlock.examples.minimal;

import dev.padlock.LockContext;
import dev.padlock.Locked;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tickets sold per event, counted with a plain read-modify-write that only the lock makes safe: {@code sell} is a
 * blocking {@code @Locked} method that reads its lock through {@link LockContext}, {@code hold} a {@code Uni} one whose
 * lock is kept until the {@code Uni} completes.
 */
@ApplicationScoped
public class Tickets {

    @Inject
    LockContext lock;

    private final Map<String, Integer> sold = new ConcurrentHashMap<>();

    /** Sells one ticket: lock {@code padlock:tickets:<event>}, held until the method returns. */
    @Locked(value = "tickets", key = "{event}")
    public String sell(String event) throws InterruptedException {
        int before = sold.getOrDefault(event, 0);
        Thread.sleep(2); // a window in which an unlocked caller would read the same count
        sold.put(event, before + 1);
        return "sold=" + (before + 1) + " key=" + lock.key() + " held=" + lock.isHeld() + " remainingMs="
                + lock.remaining().toMillis();
    }

    /**
     * Holds the same lock for {@code millis} without blocking a thread: the {@code Uni} completes after that delay, and
     * the lock is released only then.
     */
    @Locked(value = "tickets", key = "{event}")
    public Uni<String> hold(String event, long millis) {
        return Uni.createFrom()
                .item(() -> "held " + event + " for " + millis + " ms; sold=" + sold.getOrDefault(event, 0))
                .onItem()
                .delayIt()
                .by(Duration.ofMillis(millis));
    }

    public int sold(String event) {
        return sold.getOrDefault(event, 0);
    }
}
