package dev.padlock.core.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import dev.padlock.core.config.LeaseLossPolicy;
import dev.padlock.core.config.ReleasePolicy;
import dev.padlock.core.plan.LockSettings;
import dev.padlock.core.redis.LockKind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The hand-off bounds, decided on values with the clock passed in: the chain's length and budget, the margin a
 * deadline must keep, and how long the next caller sits out. No Redis and no sleeping: the contract tests on Redis
 * (LocalHandOffTest, HandOffOfALostKeyTest) show what the bounds protect.
 */
class HandOffTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LEASE_MS = 30_000;

    private static HandOff handOff(LockType type, int limit, Duration budget) {
        LockSettings settings = new LockSettings(
                type,
                Duration.ofSeconds(5),
                null,
                OnFailure.THROW,
                LeaseLossPolicy.THROW,
                limit,
                budget,
                ReleasePolicy.AFTER_TRANSACTION,
                null,
                Duration.ZERO);
        return HandOff.of(settings, LockKind.of(type).handsOff(), -1, () -> LEASE_MS);
    }

    private static HandOff.Hold after(int handOffs, long chainStart) {
        return new HandOff.Hold(-7, 0, chainStart, handOffs, new CompletableFuture<>());
    }

    @Test
    void isOffForFencedLocksForKindsThatTakeNoTurnsAndForAZeroLimitOrBudget() {
        assertThat(handOff(LockType.FENCED, 8, Duration.ofMillis(100))).isNull();
        assertThat(handOff(LockType.FAIR, 8, Duration.ofMillis(100))).isNull();
        assertThat(handOff(LockType.READ, 8, Duration.ofMillis(100))).isNull();
        assertThat(handOff(LockType.REENTRANT, 0, Duration.ofMillis(100))).isNull();
        assertThat(handOff(LockType.REENTRANT, 8, Duration.ZERO)).isNull();
        assertThat(handOff(LockType.REENTRANT, 8, Duration.ofMillis(100))).isNotNull();
    }

    @Test
    void aChainEndsAtItsLimitOfHandOffs() {
        HandOff rules = handOff(LockType.REENTRANT, 3, Duration.ofSeconds(10));
        long now = 1_000 * MS;
        long deadline = now + LEASE_MS * MS;
        assertThat(rules.allows(null, now, deadline, now))
                .as("a call that took the key from Redis")
                .isTrue();
        assertThat(rules.allows(after(2, now), now, deadline, now)).isTrue();
        assertThat(rules.allows(after(3, now), now, deadline, now))
                .as("the third hand-off was the last")
                .isFalse();
    }

    @Test
    void aChainEndsOnceItsBudgetIsSpent() {
        HandOff rules = handOff(LockType.REENTRANT, 100, Duration.ofMillis(50));
        long start = 1_000 * MS;
        long deadline = start + LEASE_MS * MS;
        assertThat(rules.allows(after(1, start), start, deadline, start + 49 * MS))
                .isTrue();
        assertThat(rules.allows(after(1, start), start, deadline, start + 50 * MS))
                .isFalse();
    }

    @Test
    void aHoldIsHandedOnOnlyWithAThirdOfTheLeaseAheadOfIt() {
        HandOff rules = handOff(LockType.REENTRANT, 100, Duration.ofSeconds(10));
        long now = 1_000 * MS;
        long third = LEASE_MS * MS / 3;
        assertThat(rules.allows(null, now, now + third, now)).isTrue();
        assertThat(rules.allows(null, now, now + third - 1, now)).isFalse();
        assertThat(rules.allows(null, now, 0, now)).as("no confirmed deadline").isFalse();
    }

    @Test
    void theNextCallerSitsOutOnceForEachOtherWaiterButOneAtMostTheBudget() {
        HandOff rules = handOff(LockType.REENTRANT, 100, Duration.ofMillis(30));
        long start = 1_000 * MS;
        long now = start + 10 * MS;
        assertThat(rules.sitOutNanos(start, 0, now)).isZero();
        assertThat(rules.sitOutNanos(start, 1, now))
                .as("the one other waiter takes its turn at once")
                .isZero();
        assertThat(rules.sitOutNanos(start, 2, now)).isEqualTo(10 * MS);
        assertThat(rules.sitOutNanos(start, 3, now)).isEqualTo(20 * MS);
        assertThat(rules.sitOutNanos(start, 9, now)).isEqualTo(30 * MS);
    }
}
