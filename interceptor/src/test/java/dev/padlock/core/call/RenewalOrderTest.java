package dev.padlock.core.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;

/**
 * Redis knows a blocking call's lock only by its thread, so a renewal of one call that reached Redis after the call's
 * release could extend the lease of the same thread's next call on that key (a 1 s fixed lease becoming the 30 s
 * watchdog one). A release therefore goes out only after every renewal sent for its call was answered, and no
 * renewal is sent once the release has begun.
 */
class RenewalOrderTest {

    @Test
    void aReleaseWaitsForTheRenewalsInFlight() {
        LockedCall call = call();
        assertThat(call.beginRenewal()).isTrue();
        assertThat(call.beginRenewal()).isTrue();

        CompletableFuture<Void> release = call.beginRelease();

        assertThat(release).as("two renewals unanswered").isNotDone();
        assertThat(call.beginRenewal()).as("no renewal once the release began").isFalse();
        call.renewalAnswered(null);
        assertThat(release).as("one renewal unanswered").isNotDone();
        call.renewalAnswered(new IllegalStateException("timed out"));
        assertThat(release).isCompleted();
        assertThat(call.beginRelease()).as("released once").isNull();
    }

    @Test
    void aReleaseWithNoRenewalInFlightGoesOutAtOnce() {
        LockedCall call = call();
        assertThat(call.beginRelease()).isCompleted();
    }

    private static LockedCall call() {
        CallFacts facts = new CallFacts(
                "M.m()", "l", "padlock:l", LockType.REENTRANT, null, null, null, 0, false, System::nanoTime, 0, false);
        return new LockedCall(facts, new RLock[0], 1, false, null, null, null, List.of());
    }
}
