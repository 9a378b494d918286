package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class VisitQueuePaceTest {
  static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
  static final Duration LONGEST = Duration.ofSeconds(60);
  final VisitQueuePace pace = new VisitQueuePace();

  @Test
  void theDrainIsMeasuredOverAWindowAndCountsWhatPassesAddedInIt() {
    pace.observe(T0, 0, 1000, Duration.ZERO);
    pace.observe(
        T0.plusMillis(50), 950, 40, Duration.ZERO); // too soon to measure: its 40 join the window
    assertThat(pace.perSecond()).isNaN();
    pace.observe(T0.plusMillis(500), 540, 0, Duration.ZERO);
    assertThat(pace.perSecond()).isEqualTo(1000.0);
    assertThat(pace.untilRefill(1000, 1000, Duration.ZERO, LONGEST))
        .isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void theNextPassStartsEarlyByAsLongAsTheLastOneTook() {
    pace.observe(T0, 0, 1000, Duration.ZERO);
    pace.observe(T0.plusSeconds(1), 0, 1000, Duration.ofMillis(150));
    assertThat(pace.untilRefill(1000, 1000, Duration.ZERO, LONGEST))
        .isEqualTo(Duration.ofMillis(350));
    pace.observe(T0.plusSeconds(2), 500, 500, Duration.ofMillis(1200));
    assertThat(pace.untilRefill(1000, 1000, Duration.ZERO, LONGEST)).isEqualTo(Duration.ZERO);
  }

  @Test
  void aQueueThatOthersFillFasterThanItDrainsWaitsTheLongest() {
    pace.observe(T0, 100, 0, Duration.ZERO);
    pace.observe(T0.plusSeconds(1), 300, 0, Duration.ZERO);
    assertThat(pace.perSecond()).isZero();
    assertThat(pace.untilRefill(300, 400, Duration.ZERO, LONGEST)).isEqualTo(LONGEST);
  }

  @Test
  void aSlowDrainWaitsAtMostTheLongestAndAHalfEmptyQueueNotAtAll() {
    pace.observe(T0, 1000, 0, Duration.ZERO);
    pace.observe(T0.plusSeconds(10), 999, 0, Duration.ZERO);
    assertThat(pace.untilRefill(999, 1000, Duration.ZERO, LONGEST)).isEqualTo(LONGEST);
    assertThat(pace.untilRefill(500, 1000, Duration.ZERO, LONGEST)).isEqualTo(Duration.ZERO);
  }

  @Test
  void beforeAnyMeasurementTheUnmeasuredWaitHolds() {
    assertThat(pace.untilRefill(1000, 1000, VisitQueuePace.PROBE, LONGEST))
        .isEqualTo(VisitQueuePace.PROBE);
  }

  /** Claims take tasks in batches: one window that saw half the drain barely moves the wait. */
  @Test
  void oneSlowWindowAmongSteadyOnesHardlyLengthensTheWait() {
    Instant t = T0;
    pace.observe(t, 500, 500, Duration.ZERO);
    for (int i = 0; i < 10; i++) {
      t = t.plusMillis(400);
      pace.observe(t, 600, 400, Duration.ZERO); // 400 left in 400 ms
    }
    assertThat(pace.perSecond()).isEqualTo(1000.0);
    t = t.plusMillis(400);
    pace.observe(t, 800, 200, Duration.ZERO); // only 200 left in this window
    assertThat(pace.perSecond()).isBetween(850.0, 950.0);
    assertThat(pace.untilRefill(1000, 1000, Duration.ZERO, LONGEST))
        .isLessThan(Duration.ofMillis(600));
  }

  @Test
  void aDrainThatSpeedsUpIsFollowedAtOnce() {
    pace.observe(T0, 500, 500, Duration.ZERO);
    pace.observe(T0.plusSeconds(1), 500, 500, Duration.ZERO); // 500/s
    pace.observe(T0.plusSeconds(2), 0, 1000, Duration.ZERO); // 1,000/s
    assertThat(pace.perSecond()).isEqualTo(1000.0);
  }
}
