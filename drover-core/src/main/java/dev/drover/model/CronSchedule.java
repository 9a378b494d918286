package dev.drover.model;

import static dev.drover.ValidationException.check;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.drover.ValidationException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.util.Objects;
import java.util.Optional;

/**
 * A Unix cron expression (five fields: minute, hour, day of month, month, day of week) read in an
 * IANA time zone: when the tasks of a cron task type run. Parsed by cron-utils; validated on
 * construction, so an invalid expression or zone names its field ({@code cron}, {@code time_zone}).
 *
 * <p>Fire times are wall-clock times of the zone, each fired once. Daylight saving time moves the
 * wall clock, and cron-utils' own handling of it skips a time that spring-forward removes, so the
 * expression is matched here on the plain wall clock (computed in UTC, which has no transitions)
 * and each matching wall-clock time is then placed in the zone by java.time's rules:
 *
 * <ul>
 *   <li>a time skipped by spring-forward fires once, later by the length of the gap ({@code 30 2 *
 *       * *} in Europe/Paris runs at 03:30 on the last Sunday of March; {@code 0 * * * *} runs at
 *       01:00 and then 03:00, once);
 *   <li>a time repeated by fall-back fires once, at its first occurrence ({@code 30 2 * * *} runs
 *       at 02:30 summer time on the last Sunday of October, not again an hour later; {@code 0 * * *
 *       *} runs at 02:00 summer time and next at 03:00 winter time).
 * </ul>
 */
public final class CronSchedule {
  /** The zone of a cron schedule that names none. */
  public static final ZoneId DEFAULT_ZONE = ZoneId.of("UTC");

  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  /** A Unix expression names no year, so it fires after any time if it fires at all. */
  private static final LocalDateTime ANY_TIME = LocalDateTime.of(2000, 1, 1, 0, 0);

  /** Placing a wall-clock time can land at or before {@code after} a few times in a row at most. */
  private static final int MAX_STEPS = 8;

  private final String expression;
  private final ZoneId zone;
  private final ExecutionTime times;

  private CronSchedule(String expression, ZoneId zone, ExecutionTime times) {
    this.expression = expression;
    this.zone = zone;
    this.times = times;
  }

  /**
   * Parses {@code expression} in {@code timeZone} (an IANA id such as {@code Europe/Paris}; UTC
   * when null).
   *
   * @throws ValidationException naming {@code cron} or {@code time_zone}
   */
  public static CronSchedule of(String expression, String timeZone) {
    check(expression != null && !expression.isBlank(), "cron", "must not be empty");
    String text = expression.trim().replaceAll("\\s+", " ");
    ZoneId zone = timeZone == null ? DEFAULT_ZONE : zone(timeZone);
    ExecutionTime times;
    try {
      Cron cron = PARSER.parse(text);
      cron.validate();
      times = ExecutionTime.forCron(cron);
    } catch (IllegalArgumentException e) {
      throw new ValidationException(
          "cron",
          "'"
              + text
              + "' is not a Unix cron expression (minute hour day-of-month month day-of-week): "
              + problem(e));
    }
    CronSchedule schedule = new CronSchedule(text, zone, times);
    check(
        times.nextExecution(ANY_TIME.atZone(ZoneOffset.UTC)).isPresent(),
        "cron",
        "'" + text + "' never fires");
    return schedule;
  }

  private static ZoneId zone(String id) {
    // Only region ids: an offset such as +02:00 has no daylight saving time, which a user who
    // writes it for a place would get wrong twice a year.
    check(
        ZoneId.getAvailableZoneIds().contains(id),
        "time_zone",
        "'" + id + "' is not an IANA time zone id (such as Europe/Paris or UTC)");
    return ZoneId.of(id);
  }

  private static String problem(IllegalArgumentException e) {
    String message = String.valueOf(e.getMessage()).replaceAll("\\s+", " ").trim();
    return message.replaceFirst("^Failed to parse cron expression\\. ", "");
  }

  /** The expression as given, with its whitespace collapsed. */
  public String expression() {
    return expression;
  }

  public ZoneId zone() {
    return zone;
  }

  /** The first fire time strictly after {@code after}. */
  public Instant nextFireAfter(Instant after) {
    Instant next = firstFireFrom(after.atZone(zone).toLocalDateTime(), after);
    // Just after spring-forward, the wall-clock times the gap skipped still fire (shifted by the
    // gap), but they are earlier on the wall clock than the time of day: look from there as well.
    ZoneOffsetTransition change = zone.getRules().previousTransition(after.plusNanos(1));
    if (change != null
        && change.isGap()
        && after.isBefore(change.getInstant().plus(change.getDuration()))) {
      LocalDateTime beforeChange = after.atOffset(change.getOffsetBefore()).toLocalDateTime();
      Instant shifted = firstFireFrom(beforeChange, after);
      next = shifted.isBefore(next) ? shifted : next;
    }
    return next;
  }

  /**
   * The first wall-clock time after {@code wall} that fires, placed, strictly after {@code after}.
   */
  private Instant firstFireFrom(LocalDateTime wall, Instant after) {
    for (int step = 0; step < MAX_STEPS; step++) {
      wall = nextWallClockTime(wall);
      // Earlier offset in an overlap; shifted forward by the gap's length in a gap.
      Instant fire = ZonedDateTime.ofLocal(wall, zone, null).toInstant();
      if (fire.isAfter(after)) {
        return fire;
      }
      // Only a repeated wall-clock time whose first occurrence has passed lands here, and so will
      // every later one until the repeated hour ends (every minute of it, for * * * * *): skip it.
      ZoneOffsetTransition overlap = zone.getRules().getTransition(wall);
      if (overlap != null && overlap.isOverlap()) {
        wall = overlap.getDateTimeBefore().minusSeconds(1);
      }
    }
    throw new IllegalStateException("cron '" + expression + "' found no fire time after " + after);
  }

  /**
   * The time between the first two fire times after {@code after}: what a cron task stores as its
   * {@code current_interval}, for information (a cron type never adapts it).
   */
  public Duration periodAfter(Instant after) {
    Instant first = nextFireAfter(after);
    return Duration.between(first, nextFireAfter(first));
  }

  private LocalDateTime nextWallClockTime(LocalDateTime after) {
    Optional<ZonedDateTime> next =
        times.nextExecution(after.truncatedTo(ChronoUnit.SECONDS).atZone(ZoneOffset.UTC));
    return next.orElseThrow(
            () -> new IllegalStateException("cron '" + expression + "' never fires again"))
        .toLocalDateTime();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CronSchedule c && c.expression.equals(expression) && c.zone.equals(zone);
  }

  @Override
  public int hashCode() {
    return Objects.hash(expression, zone);
  }

  /** {@code 30 2 * * * (Europe/Paris)}. */
  @Override
  public String toString() {
    return expression + " (" + zone.getId() + ")";
  }
}
