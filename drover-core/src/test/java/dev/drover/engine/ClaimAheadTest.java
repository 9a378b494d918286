package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ClaimAheadTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration WINDOW = Duration.ofMillis(100);

  @Test
  void nothingIsClaimedAheadBeforeAnythingFinished() {
    assertThat(new ClaimAhead(WINDOW).target("t", T0)).isZero();
  }

  @Test
  void aTypeKeepsClaimedWhatFinishedInTheLastWindow() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", T0); // opens the first window
    finish(ahead, "t", 5);
    finish(ahead, "other", 300);
    assertThat(ahead.target("t", T0.plusMillis(100))).isEqualTo(5);
    assertThat(ahead.target("other", T0.plusMillis(150))).isEqualTo(300);
    assertThat(ahead.target("t", T0.plusMillis(350)))
        .as("an idle window forgets the rate")
        .isZero();
  }

  @Test
  void aTypeKeepsAtMostTheCapClaimedAhead() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", T0);
    finish(ahead, "t", ClaimAhead.MAX + 500);
    assertThat(ahead.target("t", T0.plusMillis(120))).isEqualTo(ClaimAhead.MAX);
  }

  @Test
  void aZeroWindowTurnsClaimingAheadOff() {
    ClaimAhead off = new ClaimAhead(Duration.ZERO);
    finish(off, "t", 100);
    assertThat(off.target("t", T0)).isZero();
  }

  private static void finish(ClaimAhead ahead, String type, int n) {
    IntStream.range(0, n).forEach(i -> ahead.finished(type));
  }
}
