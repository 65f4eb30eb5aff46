package dev.padlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.padlock.core.config.DurationText;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The API formats durations itself, to depend on nothing internal: its messages must read as the engine's do. */
class DurationsTest {

    @Test
    void formatsEveryDurationAsTheEngineDoes() {
        List<Duration> spread = List.of(
                Duration.ZERO,
                Duration.ofNanos(1),
                Duration.ofNanos(999_999),
                Duration.ofNanos(1_500_000),
                Duration.ofMillis(1),
                Duration.ofMillis(999),
                Duration.ofSeconds(1),
                Duration.ofMillis(1500),
                Duration.ofSeconds(59),
                Duration.ofSeconds(61),
                Duration.ofSeconds(150),
                Duration.ofMinutes(2),
                Duration.ofSeconds(3599),
                Duration.ofHours(1),
                Duration.ofSeconds(3601),
                Duration.ofMinutes(90),
                Duration.ofDays(1),
                Duration.ofDays(3650),
                Duration.ofMillis(-1));
        for (Duration d : spread) {
            assertThat(Durations.format(d)).as(d.toString()).isEqualTo(DurationText.format(d));
        }
        assertThat(Durations.format(null)).isEqualTo(DurationText.format(null));
    }

    @Test
    void formatsShortly() {
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0ms");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofSeconds(61))).isEqualTo("1m1s");
        assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(Durations.format(Duration.ofDays(1))).isEqualTo("24h");
        assertThat(Durations.format(null)).isEqualTo("?");
    }
}
