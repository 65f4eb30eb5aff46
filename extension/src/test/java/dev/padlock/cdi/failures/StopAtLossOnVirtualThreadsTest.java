package dev.padlock.cdi.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.padlock.LockLostException;
import dev.padlock.cdi.failures.StopAtLossTest.Outcome;
import dev.padlock.cdi.failures.StopAtLossTest.Work;
import dev.padlock.testing.RedisExtension;
import dev.padlock.testing.RedisProxy;
import dev.padlock.testing.RedisServer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code on-lease-lost=interrupt} with the body on a virtual thread (JDK 21 and later; the build runs it on the
 * newest JDK installed): interrupted at the loss like a platform thread, its interrupt cleared when the call ends.
 */
@ExtendWith(RedisExtension.class)
class StopAtLossOnVirtualThreadsTest {

    @Test
    void aSleepingBodyOnAVirtualThreadIsInterruptedAtTheLoss(RedisServer redis, RedisProxy proxy) throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21; the newest-JDK run covers this");
        ExecutorService virtualThreads = virtualThreads();
        try {
            Outcome stopped = StopAtLossTest.run(redis, proxy, "interrupt", Work::sleep, virtualThreads);
            assertThat(stopped.failure()).isInstanceOf(LockLostException.class);
            assertThat(stopped.suppressed())
                    .hasOnlyElementsOfType(InterruptedException.class)
                    .hasSize(1);
            assertThat(stopped.leftInterrupted()).isFalse();
            assertThat(stopped.endedAheadMillis()).isPositive();

            Outcome control = StopAtLossTest.run(redis, proxy, "throw", Work::sleep, virtualThreads);
            assertThat(control.suppressed()).isEmpty();
            assertThat(control.endedAheadMillis()).isNegative();
        } finally {
            virtualThreads.shutdown();
        }
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, which this code, compiled for JDK 17, cannot name. */
    private static ExecutorService virtualThreads() throws ReflectiveOperationException {
        return (ExecutorService)
                Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }
}
