package dev.padlock.core.call;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The rules of stopping a call's work at a loss that no Redis decides: the body's thread is interrupted only while the
 * body runs, the interrupt is cleared when it returns (and only the one the stopper sent), and nothing runs after the
 * call's work ended. The stop itself, at a real loss, is {@code StopAtLossTest}'s.
 */
class WorkStopperTest {

    @Test
    void aStopWhileTheBodyRunsInterruptsItAndItsReturnClearsTheInterrupt() {
        WorkStopper stopper = new WorkStopper("M.m()", true);
        stopper.bodyRuns();
        stopper.stop();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        stopper.bodyReturned();
        assertThat(Thread.interrupted()).as("left interrupted").isFalse();
    }

    @Test
    void aStopAfterTheBodyReturnedInterruptsNothing() {
        WorkStopper stopper = new WorkStopper("M.m()", true);
        stopper.bodyRuns();
        stopper.bodyReturned();
        stopper.stop();
        assertThat(Thread.interrupted()).isFalse();
    }

    @Test
    void aLossBeforeTheBodyBeganInterruptsItAsItBegins() {
        WorkStopper stopper = new WorkStopper("M.m()", true);
        stopper.stop();
        stopper.bodyRuns();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        stopper.bodyReturned();
        assertThat(Thread.interrupted()).isFalse();
    }

    @Test
    void anInterruptFromElsewhereIsLeftAsItIs() {
        WorkStopper stopper = new WorkStopper("M.m()", true);
        stopper.bodyRuns();
        Thread.currentThread().interrupt(); // the caller's own, say a shutdown
        stopper.bodyReturned();
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void withoutTheInterruptPolicyOnlyTheBodysActionsRun() throws Exception {
        WorkStopper stopper = new WorkStopper("M.m()", false);
        CountDownLatch ran = new CountDownLatch(1);
        stopper.bodyRuns();
        assertThat(stopper.add(new WorkStopper.Registered(ran::countDown))).isTrue();
        stopper.stop();
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(stopper.add(new WorkStopper.Registered(() -> {})))
                .as("added after the loss")
                .isFalse();
        stopper.bodyReturned();
    }

    @Test
    void nothingRunsOnceTheWorkEndedOrTheActionWasRemoved() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        WorkStopper ended = new WorkStopper("M.m()", true);
        ended.add(new WorkStopper.Registered(runs::incrementAndGet));
        ended.stopsResultWith(runs::incrementAndGet);
        ended.end();
        ended.stop();

        WorkStopper removed = new WorkStopper("M.m()", false);
        WorkStopper.Registered action = new WorkStopper.Registered(runs::incrementAndGet);
        removed.add(action);
        removed.remove(action);
        removed.stop();

        CountDownLatch after = new CountDownLatch(1);
        WorkStopper witness = new WorkStopper("M.m()", false);
        witness.add(new WorkStopper.Registered(after::countDown));
        witness.stop();
        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue(); // stops run in order on one thread per loss
        assertThat(runs.get()).isZero();
    }
}
