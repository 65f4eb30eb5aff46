package dev.padlock.core.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockLost;
import dev.padlock.LockType;
import dev.padlock.core.call.CallFacts;
import dev.padlock.core.call.LockedCall;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;

/**
 * When the lease renewal sends a renewal or an extension for a call, and when it looks at the call again, decided with
 * the clock passed in: no Redis and no sleeping. The calls here hold no Redisson lock objects (nothing is sent), and
 * take no local turns. RenewalStormTest, LeaseLossTest and LocalTurnLeaseTest show the same timing against Redis.
 */
class CallRenewerTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SECOND = 1_000 * MS;

    @Test
    void aRenewalIsDueOnceAThirdOfTheWatchdogLeaseHasPassedSinceTheLastConfirmation() {
        long deadline = 100 * SECOND;
        long period = CallRenewer.periodNanos(30_000);
        assertThat(period).isEqualTo(10 * SECOND);
        assertThat(CallRenewer.renewalDueAt(deadline, period))
                .as("two thirds of the lease before the deadline")
                .isEqualTo(deadline - 20 * SECOND);
        assertThat(CallRenewer.renewalDueAt(Long.MAX_VALUE, period))
                .as("nothing confirmed, nothing to renew")
                .isEqualTo(Long.MAX_VALUE);
        assertThat(CallRenewer.periodNanos(0))
                .as("never zero, so the chain cannot spin")
                .isEqualTo(MS);
    }

    @Test
    void aRenewalSentIsAwaitedATenthOfTheLeaseBeforeItIsSentAgain() {
        assertThat(CallRenewer.retryMillis(30_000)).isEqualTo(3_000);
        assertThat(CallRenewer.retryMillis(5)).as("at least a millisecond").isEqualTo(1);
        long due = 50 * SECOND;
        assertThat(CallRenewer.isDue(due - 1, due, false)).isFalse();
        assertThat(CallRenewer.isDue(due, due, false)).isTrue();
        assertThat(CallRenewer.isDue(due + SECOND, due, true))
                .as("one sent is awaited")
                .isFalse();
    }

    /**
     * "Nothing due" is {@code Long.MAX_VALUE}, never reached by the clock: compared by difference with a clock that
     * reads negative, {@code now - Long.MAX_VALUE} would overflow to a positive number and make it due (a fixed-lease
     * call owed nothing would then be sent an extension it has no lease for). The engine's other sums still need a
     * clock that reads non-negative ({@code EngineOptions.ticker}).
     */
    @Test
    void nothingIsDueWhenNothingIsScheduledEvenOnAClockThatReadsNegative() {
        assertThat(CallRenewer.isDue(-5 * SECOND, Long.MAX_VALUE, false)).isFalse();
        assertThat(CallRenewer.isDue(5 * SECOND, Long.MAX_VALUE, false)).isFalse();
        assertThat(CallRenewer.isDue(-5 * SECOND, -6 * SECOND, false))
                .as("a time that came, on a negative clock")
                .isTrue();
    }

    @Test
    void theChainLooksAtACallAgainAtItsRenewalItsRetryOrItsDeadlineWhicheverComesFirst() {
        long deadline = 100 * SECOND;
        long renewal = 80 * SECOND;
        assertThat(CallRenewer.attentionAt(deadline, renewal, 0)).isEqualTo(renewal);
        assertThat(CallRenewer.attentionAt(deadline, renewal, 70 * SECOND))
                .as("an older retry time does not bring it forward")
                .isEqualTo(renewal);
        assertThat(CallRenewer.attentionAt(deadline, renewal, 90 * SECOND))
                .as("a renewal awaited puts it off")
                .isEqualTo(90 * SECOND);
        assertThat(CallRenewer.attentionAt(deadline, renewal, 120 * SECOND))
                .as("never past the deadline")
                .isEqualTo(deadline);
        assertThat(CallRenewer.attentionAt(deadline, Long.MAX_VALUE, 0))
                .as("nothing to renew")
                .isEqualTo(deadline);
        assertThat(CallRenewer.attentionAt(Long.MAX_VALUE, renewal, 0))
                .as("nothing held")
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aWatchdogModeCallIsRenewedByItsEarliestDeadlineAndNotAgainWhileARenewalIsAwaited() {
        LockedCall call = call(false);
        long sent = 1_000 * SECOND;
        call.confirmed(0, sent, 30_000);
        call.confirmed(1, sent + SECOND, 30_000);
        long due = call.earliestDeadline() - 20 * SECOND;
        assertThat(CallRenewer.nextAttention(call, 30_000)).isEqualTo(due);
        assertThat(CallRenewer.isDue(call, 30_000, due - 1)).isFalse();
        assertThat(CallRenewer.isDue(call, 30_000, due)).isTrue();

        call.retryAfter(due + 3 * SECOND); // what renewOrExtend records as it sends
        assertThat(CallRenewer.isDue(call, 30_000, due + SECOND)).isFalse();
        assertThat(CallRenewer.nextAttention(call, 30_000)).isEqualTo(due + 3 * SECOND);
        assertThat(CallRenewer.isDue(call, 30_000, due + 3 * SECOND))
                .as("no answer: sent again")
                .isTrue();
    }

    @Test
    void aFixedLeaseCallIsOnlyExtendedWhenItIsOwedALeaseItWasHandedWith() {
        LockedCall call = call(true);
        long now = 1_000 * SECOND;
        call.confirmed(0, now, 3_000);
        long deadline = call.earliestDeadline();
        assertThat(CallRenewer.nextAttention(call, 0)).as("only its deadline").isEqualTo(deadline);
        assertThat(CallRenewer.isDue(call, 0, deadline)).isFalse();

        call.owe(0, now, 9 * SECOND); // handed on, as if with a 9 s lease
        long due = deadline - 6 * SECOND;
        assertThat(CallRenewer.nextAttention(call, 0)).isEqualTo(due);
        assertThat(CallRenewer.isDue(call, 0, due)).isTrue();
    }

    @Test
    void aLapsingCallIsLookedAtAgainAtEachDeadlineUntilNoneIsLeft() {
        LockedCall call = call(false);
        call.markTaken(2);
        call.confirmed(0, 0, 1_000);
        call.confirmed(1, 500 * MS, 1_000);
        long first = call.deadline(0);
        long second = call.deadline(1);
        assertThat(CallRenewer.lapsedBy(call, 0)).isEqualTo(first);
        assertThat(CallRenewer.lapsedBy(call, first)).isEqualTo(second);
        assertThat(CallRenewer.lapsedBy(call, second)).as("none left").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aLapsingCallDoesNotWaitForALockItLost() {
        LockedCall call = call(false);
        call.markTaken(2);
        call.confirmed(0, 0, 1_000);
        call.confirmed(1, 500 * MS, 1_000);
        call.markLost(0, new LockLost("padlock:l:a", "M.m()", Duration.ZERO, LockLost.Detection.RENEWAL, null));
        assertThat(CallRenewer.lapsedBy(call, 0)).isEqualTo(call.deadline(1));
    }

    /** A call of two locks that holds no Redisson lock object: nothing here sends anything. */
    private static LockedCall call(boolean hasFixedLease) {
        CallFacts facts = new CallFacts(
                "M.m()",
                "l",
                "padlock:l",
                LockType.REENTRANT,
                null,
                null,
                null,
                0,
                hasFixedLease,
                System::nanoTime,
                0,
                false);
        return new LockedCall(facts, new RLock[2], 1, false, null, null, null, List.of());
    }
}
