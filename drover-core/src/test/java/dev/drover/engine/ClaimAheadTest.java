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
  void aFasterCurrentWindowCountsAtItsPaceOnceAQuarterHasPassed() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", T0); // opens the first window
    finish(ahead, "t", 50);
    assertThat(ahead.target("t", T0.plusMillis(20)))
        .as("too early in the window to tell a pace")
        .isZero();
    assertThat(ahead.target("t", T0.plusMillis(25))).isEqualTo(200);
    assertThat(ahead.target("t", T0.plusMillis(50))).isEqualTo(100);
    finish(ahead, "t", 10);
    assertThat(ahead.target("t", T0.plusMillis(130)))
        .as("the last window's 60, and 0 so far in this one")
        .isEqualTo(60);
  }

  @Test
  void aWindowThatRanOnPastItsEndCountsAtItsPaceOverOneWindow() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", T0); // opens the first window
    finish(ahead, "t", 600);
    assertThat(ahead.target("t", T0.plusMillis(250)))
        .as("600 finished in a window stretched to 250 ms by a long pass: 240 per 100 ms")
        .isEqualTo(240);
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
