package dev.padlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** {@link PadlockAssert} with no container and no Redis at all: a plain unit test of code that asserts its lock. */
class PadlockAssertWithoutPadlockTest {

    @Test
    void failsWithoutAContainerAndSaysWhy() {
        AssertionError failure =
                catchThrowableOfType(AssertionError.class, () -> PadlockAssert.assertLocked("stock", 42));

        assertThat(failure)
                .hasMessageStartingWith("Expected the current code to run under Padlock lock \"stock\" for key 42"
                        + " (Redis key padlock:stock:42 with the default key prefix), but no Padlock lock is held on"
                        + " thread " + Thread.currentThread().getName());
    }

    @Test
    void aSuspensionLetsEveryAssertionPassOnItsThreadUntilClosed() throws Exception {
        try (PadlockAssert.Suspension outer = PadlockAssert.suspendOnThisThread()) {
            try (PadlockAssert.Suspension inner = PadlockAssert.suspendOnThisThread()) {
                PadlockAssert.assertLocked();
            }
            PadlockAssert.assertLocked("stock");
            PadlockAssert.assertLocked("stock", "A-42");
            Throwable elsewhere = CompletableFuture.runAsync(PadlockAssert::assertLocked)
                    .handle((ok, failed) -> failed)
                    .get();
            assertThat(elsewhere).hasCauseInstanceOf(AssertionError.class);
        }

        assertThatThrownBy(PadlockAssert::assertLocked).isInstanceOf(AssertionError.class);
    }
}
