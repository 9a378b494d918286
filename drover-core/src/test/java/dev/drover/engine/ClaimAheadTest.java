package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ClaimAheadTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration WINDOW = Duration.ofMillis(100);
  private static final int SLOTS = 8;
  private static final Duration QUICK = Duration.ofMillis(1);

  @Test
  void nothingIsClaimedAheadBeforeAnythingFinished() {
    assertThat(new ClaimAhead(WINDOW).target("t", SLOTS, T0)).isZero();
  }

  @Test
  void aTypeKeepsClaimedWhatFinishedInTheLastWindow() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", SLOTS, T0); // opens the first window
    finish(ahead, "t", 5, QUICK);
    finish(ahead, "other", 300, QUICK);
    assertThat(ahead.target("t", SLOTS, T0.plusMillis(100))).isEqualTo(5);
    assertThat(ahead.target("other", SLOTS, T0.plusMillis(150))).isEqualTo(300);
    assertThat(ahead.target("t", SLOTS, T0.plusMillis(350)))
        .as("an idle window forgets the rate")
        .isZero();
  }

  @Test
  void theCurrentWindowCountsAtThePaceTheWorkersRanItsTasks() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("tens", SLOTS, T0); // opens the first window
    finish(ahead, "tens", 40, Duration.ofMillis(10));
    assertThat(ahead.target("tens", SLOTS, T0.plusMillis(60)))
        .as("8 workers running 10 ms tasks finish 80 in 100 ms, however long the window waited")
        .isEqualTo(80);
    finish(ahead, "slow", 8, Duration.ofSeconds(1));
    assertThat(ahead.target("slow", SLOTS, T0.plusMillis(60)))
        .as("8 workers running 1 s tasks finish none in 100 ms: free slots only")
        .isZero();
  }

  @Test
  void quickTasksCountAtMostFourTimesWhatFinished() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", SLOTS, T0); // opens the first window
    finish(ahead, "t", SLOTS, Duration.ofNanos(50_000));
    assertThat(ahead.target("t", SLOTS, T0.plusMillis(5)))
        .as("8 tasks of 50 µs would be 16,000 a window; the first pass's 8 count as 32")
        .isEqualTo(ClaimAhead.GROWTH * SLOTS);
    finish(ahead, "t", 40, Duration.ZERO);
    assertThat(ahead.target("t", SLOTS, T0.plusMillis(10)))
        .as("tasks that ran for no measurable time count by the same bound")
        .isEqualTo(ClaimAhead.GROWTH * 48);
  }

  @Test
  void aWindowThatRanOnPastItsEndCountsAtItsPaceOverOneWindow() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", SLOTS, T0); // opens the first window
    finish(ahead, "t", 600, QUICK);
    assertThat(ahead.target("t", SLOTS, T0.plusMillis(250)))
        .as("600 finished in a window stretched to 250 ms by a long pass: 240 per 100 ms")
        .isEqualTo(240);
  }

  @Test
  void aTypeKeepsAtMostTheCapClaimedAhead() {
    ClaimAhead ahead = new ClaimAhead(WINDOW);
    ahead.target("t", SLOTS, T0);
    finish(ahead, "t", ClaimAhead.MAX + 500, Duration.ofNanos(10_000));
    assertThat(ahead.target("t", SLOTS, T0.plusMillis(50))).isEqualTo(ClaimAhead.MAX);
    assertThat(ahead.target("t", SLOTS, T0.plusMillis(120))).isEqualTo(ClaimAhead.MAX);
  }

  @Test
  void aZeroWindowTurnsClaimingAheadOff() {
    ClaimAhead off = new ClaimAhead(Duration.ZERO);
    finish(off, "t", 100, QUICK);
    assertThat(off.target("t", SLOTS, T0)).isZero();
  }

  private static void finish(ClaimAhead ahead, String type, int n, Duration ran) {
    IntStream.range(0, n).forEach(i -> ahead.finished(type, ran));
  }
}
