package dev.drover.engine;

import java.time.Duration;
import java.time.Instant;

/**
 * How fast one visit queue drains, measured from the queue lengths the visit passes count, and so
 * when its next pass is due. A fixed wait cannot keep a queue fed: the reference's 60 s queue-full
 * wait leaves a queue of 1,000 empty for 59 s when visits end at 1,000/s, and a short one counts a
 * queue that drains once a day every few seconds.
 *
 * <p>Part of a pass's cost does not depend on its size (counting the queue, each policy's index
 * descent and the origins in cooldown it skips), so a queue is refilled when half of it is free,
 * not at the reference's 5 %: fewer, larger passes, with half a queue of work left while a pass
 * runs.
 */
final class VisitQueuePace {
  /** The share of the queue that is free when the next pass is due. */
  static final double REFILL_SHARE = 0.5;

  /** A drain is measured over at least this long: two counts a few ms apart say nothing. */
  static final Duration MIN_WINDOW = Duration.ofMillis(200);

  /**
   * The drain is averaged over about this many seconds: workers take tasks in claims of many at a
   * time, so one window of a few hundred ms may see half the true drain, and a wait computed from
   * it alone would let the queue run dry.
   */
  static final double SMOOTHING_SECONDS = 2;

  /** With no drain measured yet, a full queue is counted again after this long. */
  static final Duration PROBE = Duration.ofSeconds(1);

  private Instant windowStart;

  /** Tasks queued when the window began, plus those the passes added since. */
  private long queuedSinceStart;

  /** Tasks that left the queue per second in the last window; NaN before the first. */
  private double latest = Double.NaN;

  /** The drain averaged over the last few seconds' windows; NaN before the first. */
  private double smoothed = Double.NaN;

  /** How long the last pass took: the next one starts that much early. */
  private Duration lastPass = Duration.ZERO;

  /**
   * Takes in a pass that began at {@code now}, counted {@code queued} tasks, created {@code
   * created} and took {@code took}.
   */
  void observe(Instant now, long queued, int created, Duration took) {
    lastPass = took;
    if (windowStart != null && Duration.between(windowStart, now).compareTo(MIN_WINDOW) < 0) {
      queuedSinceStart += created;
      return;
    }
    if (windowStart != null) {
      double seconds = Duration.between(windowStart, now).toNanos() / 1e9;
      // Fewer left than were added only when something else enqueued visits: no drain seen.
      latest = Math.max(0, queuedSinceStart - queued) / seconds;
      double weight = Double.isNaN(smoothed) ? 1 : -Math.expm1(-seconds / SMOOTHING_SECONDS);
      smoothed = Double.isNaN(smoothed) ? latest : smoothed + weight * (latest - smoothed);
    }
    windowStart = now;
    queuedSinceStart = queued + created;
  }

  /**
   * The wait until {@link #REFILL_SHARE} of a queue of {@code capacity} that holds {@code queued}
   * tasks is free, at the measured drain, less the last pass's time, at most {@code longest}; none
   * if that much is free already. Before a drain is measured the wait is {@code unmeasured}; a
   * queue that has never drained waits {@code longest}, and one that stops draining waits longer
   * with each pass as its average drain falls.
   */
  Duration untilRefill(long queued, long capacity, Duration unmeasured, Duration longest) {
    double toDrain = queued - capacity * (1 - REFILL_SHARE);
    if (toDrain <= 0) {
      return Duration.ZERO;
    }
    double perSecond = perSecond();
    if (Double.isNaN(perSecond)) {
      return min(unmeasured, longest);
    }
    if (perSecond == 0) {
      return longest;
    }
    // The visits of the next pass reach the queue when that pass ends: it starts early by as long
    // as the last one took, so the queue is not below the refill point when they land.
    long millis = (long) Math.ceil(toDrain / perSecond * 1000) - lastPass.toMillis();
    return millis <= 0 ? Duration.ZERO : min(Duration.ofMillis(millis), longest);
  }

  /**
   * The drain the next wait assumes, tasks per second: the average of the last few seconds, or the
   * last window's if that is faster (a drain that speeds up is followed at once); NaN before the
   * first measurement.
   */
  double perSecond() {
    return Math.max(latest, smoothed);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
