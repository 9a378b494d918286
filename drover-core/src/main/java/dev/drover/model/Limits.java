package dev.drover.model;

import dev.drover.ValidationException;
import java.time.Duration;
import java.time.Instant;

/**
 * The bounds every duration, factor and instant is checked against where it enters Drover (CLI
 * options, configuration files, task files and the Java API), so that arithmetic on stored values
 * (an interval times a factor, now plus a delay) can never overflow at run time.
 */
public final class Limits {
  /** The longest duration: 100 years of 365 days. */
  public static final Duration MAX_DURATION = Duration.ofDays(36_500);

  /** The largest backoff factor; the smallest is 1 (a fixed interval). */
  public static final double MAX_BACKOFF_FACTOR = 100;

  /** The earliest instant accepted: the Unix epoch. */
  public static final Instant EARLIEST = Instant.EPOCH;

  /** The latest instant accepted: the last millisecond of year 9999 UTC. */
  public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

  private Limits() {}

  /** Refuses a duration longer than {@link #MAX_DURATION}, naming {@code field}. */
  public static Duration checkDuration(String field, Duration d) {
    ValidationException.check(
        d == null || d.compareTo(MAX_DURATION) <= 0,
        field,
        "must be at most " + DurationText.format(MAX_DURATION) + " (100 years)");
    return d;
  }

  /** Refuses an instant outside {@link #EARLIEST}..{@link #LATEST}, naming {@code field}. */
  public static Instant checkInstant(String field, Instant t) {
    if (t != null && (t.isBefore(EARLIEST) || t.isAfter(LATEST))) {
      // the message is built only here: formatting instants was a tenth of reading a task file
      throw new ValidationException(
          field, t + " is out of range (from " + EARLIEST + " to " + LATEST + ")");
    }
    return t;
  }
}
