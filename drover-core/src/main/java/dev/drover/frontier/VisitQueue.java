package dev.drover.frontier;

import java.util.random.RandomGenerator;

/**
 * The arithmetic of the visit queue (reference section 4). Each origin has a place in a virtual
 * timeline, in seconds; after each visit it moves ahead by {@link #days(int)} of its offset, with
 * ±10 % jitter so that origins visited together spread out. An eventful visit (a new snapshot)
 * pulls the offset back by 2, anything else pushes it on by 1, within [0, 10].
 */
public final class VisitQueue {
  /** The offset of an origin never visited. */
  public static final int DEFAULT_OFFSET = 4;

  public static final int MAX_OFFSET = 10;

  /** Visits in a row that failed (or found nothing) the same way before an origin is disabled. */
  public static final int DISABLE_THRESHOLD = 3;

  static final double JITTER = 0.1;
  private static final long SECONDS_PER_DAY = 86_400;

  private VisitQueue() {}

  /** How many days ahead an offset moves an origin: 1 below 2, 2 below 5, then 4^(offset − 4). */
  public static long days(int offset) {
    if (offset < 2) {
      return 1;
    }
    if (offset < 5) {
      return 2;
    }
    return 1L << (2 * (offset - 4));
  }

  /** The offset after a visit: −2 if it was eventful, +1 otherwise, kept within [0, 10]. */
  public static int nextOffset(int offset, boolean eventful) {
    return Math.max(0, Math.min(offset + (eventful ? -2 : 1), MAX_OFFSET));
  }

  /**
   * The next place in the queue: {@code base + days(offset) × 86400 × (1 + u)}, u uniform in [−0.1,
   * 0.1) drawn from {@code random}, truncated to whole seconds.
   */
  public static long nextPosition(long base, int offset, RandomGenerator random) {
    double u = (random.nextDouble() * 2 - 1) * JITTER;
    return base + (long) (days(offset) * SECONDS_PER_DAY * (1 + u));
  }
}
