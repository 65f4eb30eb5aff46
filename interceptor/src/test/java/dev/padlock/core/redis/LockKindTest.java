package dev.padlock.core.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * What {@link LockKind#of} decides for each type, which the plan, the engine and the test kit read instead of testing
 * types themselves. A new type does not compile until {@code of} decides it; these tests say what was decided.
 */
class LockKindTest {

    @Test
    void readAndWriteAreOneFamilyAndEveryOtherTypeIsItsOwn() {
        assertThat(LockKind.of(LockType.READ).family())
                .isEqualTo(LockKind.of(LockType.WRITE).family());
        assertThat(Arrays.stream(LockType.values())
                        .map(t -> LockKind.of(t).family())
                        .distinct())
                .hasSize(LockType.values().length - 1);
    }

    @Test
    void onlyAFencedLockGivesATokenAndIsNotHandedOff() {
        assertThat(types(LockKind::fenced)).containsExactly(LockType.FENCED);
        assertThat(types(LockKind::takesTurns))
                .containsExactly(LockType.REENTRANT, LockType.WRITE, LockType.SPIN, LockType.FENCED);
    }

    /** A chain must end by giving way to the other applications' waiters, so only kinds whose waiters it sees. */
    @Test
    void onlyLocksWhoseWaitersSubscribeAreHandedOff() {
        assertThat(types(LockKind::handsOff)).containsExactly(LockType.REENTRANT, LockType.WRITE);
        assertThat(types(k -> k.channel() != null)).containsAll(types(LockKind::handsOff));
    }

    private static EnumSet<LockType> types(Predicate<LockKind> decided) {
        EnumSet<LockType> types = EnumSet.noneOf(LockType.class);
        for (LockType type : LockType.values()) {
            if (decided.test(LockKind.of(type))) {
                types.add(type);
            }
        }
        return types;
    }
}
