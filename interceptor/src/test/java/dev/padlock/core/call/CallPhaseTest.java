package dev.padlock.core.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.padlock.LockType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.redisson.api.RLock;

/**
 * A call's life, moved only by its own verbs and checked at each move: the paths the operations take, and the moves
 * nobody may make, which throw in tests (assertions are on). No Redis: a call of no locks has a life all the same.
 */
class CallPhaseTest {

    private static LockedCall call() {
        CallFacts facts = new CallFacts(
                "M.m()", "l", "padlock:l", LockType.REENTRANT, null, null, null, 0, false, System::nanoTime, 0, false);
        return new LockedCall(facts, new RLock[0], 1, false, null, null, null, List.of());
    }

    @Test
    void aBlockingCallRunsAwaitsItsTransactionThenIsReleased() {
        LockedCall call = call();
        assertThat(call.phase()).isEqualTo(CallPhase.ACQUIRING);
        ThreadCalls.unbind(ThreadCalls.bind(call));
        assertThat(call.phase()).isEqualTo(CallPhase.RUNNING);
        call.deferRelease("awaiting transaction");
        assertThat(call.phase()).isEqualTo(CallPhase.DEFERRED);
        assertThat(call.beginRelease()).as("nothing in flight").isDone();
        assertThat(call.phase()).isEqualTo(CallPhase.RELEASING);
        assertThat(call.isReleased()).isTrue();
        assertThat(call.beginRelease()).as("a call ends once").isNull();
        call.releaseEnded();
        assertThat(call.phase()).isEqualTo(CallPhase.DONE);
        assertThat(call.isReleased()).isTrue();
    }

    @Test
    void aTransactionThatRefusesTheCallLeavesItToBeReleasedAtReturn() {
        LockedCall call = call();
        ThreadCalls.unbind(ThreadCalls.bind(call));
        call.deferRelease("awaiting transaction");
        call.releaseAtReturn();
        assertThat(call.phase()).isEqualTo(CallPhase.RUNNING);
    }

    @Test
    void aCallAbandonedBeforeItsBodyNeverStartsAndIsReleased() {
        LockedCall call = call();
        assertThat(call.abandon()).isTrue();
        assertThat(call.abandon()).as("a second cancellation").isTrue();
        assertThat(call.start()).as("the body must not run").isFalse();
        assertThat(call.beginRenewal())
                .as("what it took is still renewed until released")
                .isTrue();
        call.renewalAnswered(null);
        assertThat(call.beginRelease()).isNotNull();
        assertThat(call.phase()).isEqualTo(CallPhase.RELEASING);
    }

    @Test
    void aCallWhoseBodyStartedCannotBeAbandonedButLapses() {
        LockedCall call = call();
        assertThat(call.start()).isTrue();
        ThreadCalls.unbind(ThreadCalls.bind(call)); // after start: stays RUNNING
        assertThat(call.abandon()).isFalse();
        assertThat(call.beginLapse()).isTrue();
        assertThat(call.isLapsing()).isTrue();
        assertThat(call.beginRelease()).as("releasing later is a no-op").isNull();
        assertThat(call.beginRenewal()).as("nothing renewed once lapsing").isFalse();
        assertThat(call.phase()).isEqualTo(CallPhase.LAPSING);
    }

    @Test
    void aStreamWhoseReleaseBeganBeforeItsItemArrivedDoesNotStart() {
        LockedCall call = call();
        call.beginRelease(); // e.g. taken just as its subscriber cancelled
        assertThat(call.start()).isFalse();
        assertThat(call.phase()).isEqualTo(CallPhase.RELEASING);
    }

    @Test
    void aBodyThatWouldRunAfterTheReleaseBeganFailsLoudly() {
        LockedCall call = call();
        call.beginRelease();
        assertThatThrownBy(() -> ThreadCalls.bind(call))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("from RELEASING to RUNNING");
    }

    @Test
    void anAbandonedCallIsNeverLeftToLapse() {
        LockedCall call = call();
        call.abandon();
        assertThatThrownBy(call::beginLapse)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("from ABANDONED to LAPSING");
    }

    @Test
    void lapsingAndDoneAreFinal() {
        for (CallPhase next : CallPhase.values()) {
            assertThat(CallPhase.LAPSING.mayBecome(next))
                    .as("LAPSING to %s", next)
                    .isFalse();
            assertThat(CallPhase.DONE.mayBecome(next)).as("DONE to %s", next).isFalse();
        }
        assertThat(CallPhase.RELEASING.beforeRelease()).isFalse();
        assertThat(CallPhase.ABANDONED.beforeRelease()).isTrue();
    }
}
