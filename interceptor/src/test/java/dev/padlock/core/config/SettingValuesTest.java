package dev.padlock.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.LockType;
import dev.padlock.OnFailure;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one rule per value type, whichever setting it is read for. */
class SettingValuesTest {

    private final Problems problems = new Problems();

    @Test
    void enumsIgnoreCaseAndTakeDashesForUnderscores() {
        assertThat(EnumSetting.LOCK_TYPE.parse(" Fair ")).contains(LockType.FAIR);
        assertThat(EnumSetting.ON_FAILURE.parse("skip")).contains(OnFailure.SKIP);
        assertThat(EnumSetting.LEASE_LOSS_POLICY.parse("THROW")).contains(LeaseLossPolicy.THROW);
        enum Two {
            ONE_WAY,
            OTHER
        }
        assertThat(new EnumSetting<>(Two.class, "a way", "").parse("one-way")).contains(Two.ONE_WAY);
        assertThat(EnumSetting.spelled(Two.ONE_WAY)).isEqualTo("one-way");
    }

    @Test
    void anUnknownEnumValueIsOneMessageShape() {
        LockType type = EnumSetting.LOCK_TYPE.read("padlock.locks.\"x\".type", "exclusive", LockType.FAIR, problems);
        assertThat(type).isEqualTo(LockType.FAIR);
        assertThat(problems.list())
                .containsExactly("Invalid padlock.locks.\"x\".type: 'exclusive' is not a LockType. Use one of"
                        + " reentrant, fair, read, write, spin, fenced.");
    }

    @Test
    void aLeaseIsADurationOfAtLeastAMillisecondOrTheWatchdog() {
        assertThat(SettingValues.lease("k", "Watchdog", problems)).isNull();
        assertThat(SettingValues.lease("k", "1ms", problems)).isEqualTo(Duration.ofMillis(1));
        assertThat(problems.isEmpty()).isTrue();
        assertThat(SettingValues.lease("k", "0", problems)).isNull();
        assertThat(SettingValues.lease("k", "PT0.0004S", problems)).isNull();
        assertThat(SettingValues.lease("k", "soon", problems)).isNull();
        assertThat(problems.list())
                .containsExactly(
                        "Invalid k: a lease of 0 would free the lock at once. Set a positive lease, or 'watchdog' to"
                                + " have it renewed while the method runs.",
                        "Invalid k: 'PT0.0004S' is under 1ms, the smallest lease Redis keeps. Set 1ms or more, or"
                                + " 'watchdog'.",
                        "Invalid k: 'soon' is not a duration; use 0, 250ms, 5s, 2m, 1h, 1d or ISO-8601 such as PT5S,"
                                + " or 'watchdog'.");
    }

    @Test
    void aBadDurationFallsBackToWhatTheCallerGives() {
        Duration d = SettingValues.duration("k", "soon", Duration.ofSeconds(30), "Fix it", problems);
        assertThat(d).isEqualTo(Duration.ofSeconds(30));
        assertThat(problems.list())
                .singleElement()
                .asString()
                .startsWith("Invalid k: 'soon'")
                .endsWith(". Fix it.");
    }

    @Test
    void bracesInANameAreOneRuleWithOneText() {
        assertThat(SettingValues.hasNoHashTag("k", "stock:eu", problems)).isTrue();
        assertThat(SettingValues.hasNoHashTag("k", "{stock}", problems)).isFalse();
        assertThat(problems.list())
                .containsExactly("Invalid k: '{stock}' contains '{' or '}', which Redis Cluster reads as a hash tag"
                        + " and which would put Redisson's side keys of the lock in another slot than the lock."
                        + " Remove the braces.");
    }
}
