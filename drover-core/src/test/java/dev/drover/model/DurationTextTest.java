package dev.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationTextTest {

  @ParameterizedTest
  @CsvSource({
    "1h30m, PT1H30M",
    "1d12h, PT36H",
    "2m30s, PT2M30S",
    "1m 30s, PT1M30S",
    "1s500ms, PT1.5S",
    "90, PT1M30S",
    "7d, PT168H",
    "1w, PT168H",
    "pt2h, PT2H"
  })
  void readsSimpleAndCompoundForms(String text, String iso) {
    assertThat(DurationText.parse("f", text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @CsvSource({
    "PT1H30M, 1h30m",
    "PT168H, 7d",
    "PT4.571508955S, 4.572s",
    "PT0.25S, 250ms",
    "PT36H0.5S, 1d12h0.5s",
    "PT0S, 0ms"
  })
  void printsWhatItReadsBack(String iso, String text) {
    Duration d = Duration.parse(iso);
    assertThat(DurationText.format(d)).isEqualTo(text);
    assertThat(DurationText.parse("f", text))
        .isEqualTo(Duration.ofMillis(Math.round(d.toNanos() / 1e6)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"999999999999d", "36501d", "P36501D", "5300000w", "1e400"})
  void refusesMoreThanTheLimit(String text) {
    assertThatThrownBy(() -> DurationText.parse("default_interval", text))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("default_interval: ");
  }

  @ParameterizedTest
  @ValueSource(strings = {"30m1h", "1h1h", "h", "1x", "1h 30", "forever"})
  void refusesWhatItCannotRead(String text) {
    assertThatThrownBy(() -> DurationText.parse("lease", text))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("cannot read");
  }

  @Test
  void theLimitItselfIsAccepted() {
    assertThat(DurationText.parse("f", "36500d")).isEqualTo(Limits.MAX_DURATION);
  }
}
