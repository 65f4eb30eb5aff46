package dev.padlock.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {

    @Test
    void parsesEveryDocumentedForm() {
        assertThat(DurationText.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(DurationText.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(DurationText.parse("5s")).isEqualTo(Duration.ofSeconds(5));
        assertThat(DurationText.parse(" 2m ")).isEqualTo(Duration.ofMinutes(2));
        assertThat(DurationText.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(DurationText.parse("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(DurationText.parse("PT5S")).isEqualTo(Duration.ofSeconds(5));
        assertThat(DurationText.parse("pt2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(DurationText.parse("10S")).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void rejectsWhatIsNotADurationWithTheSyntaxInTheMessage() {
        for (String bad : new String[] {"", "abc", "5", "5 seconds", "-5s", "PT-5S", "5x", "99999999999999999999s"}) {
            assertThatThrownBy(() -> DurationText.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("250ms");
        }
    }

    @Test
    void refusesMoreThanTenYearsInEveryForm() {
        assertThat(DurationText.parse("3650d")).isEqualTo(Duration.ofDays(3650));
        for (String huge : new String[] {"3651d", "200000000000d", "PT87649H", "9223372036854775807ms"}) {
            assertThatThrownBy(() -> DurationText.parse(huge))
                    .as(huge)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("'" + huge + "' is more than 10 years (3650d); ");
        }
    }

    @Test
    void formatsForMessages() {
        assertThat(DurationText.format(Duration.ZERO)).isEqualTo("0ms");
        assertThat(DurationText.format(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(DurationText.format(Duration.ofSeconds(5))).isEqualTo("5s");
        assertThat(DurationText.format(Duration.ofSeconds(150))).isEqualTo("2m30s");
        assertThat(DurationText.format(Duration.ofMinutes(2))).isEqualTo("2m");
        assertThat(DurationText.format(Duration.ofHours(3))).isEqualTo("3h");
    }
}
