package dev.drover.frontier;

import static dev.drover.ValidationException.check;

import java.time.Duration;

/**
 * How long an origin rests before it may be scheduled again. A null (or zero) cooldown is off.
 *
 * @param absolute since it was last scheduled, whatever happened since (default 12 hours)
 * @param scheduled since it was last scheduled, unless a visit result newer than that scheduling
 *     has arrived (default 7 days: a visit that never reported is taken as lost)
 * @param failed since its last visit, if that visit failed (default 14 days)
 * @param notFound since its last visit, if the origin was not found (default 31 days)
 */
public record Cooldowns(Duration absolute, Duration scheduled, Duration failed, Duration notFound) {
  public static final Cooldowns DEFAULT =
      new Cooldowns(
          Duration.ofHours(12), Duration.ofDays(7), Duration.ofDays(14), Duration.ofDays(31));
  public static final Cooldowns NONE = new Cooldowns(null, null, null, null);

  public Cooldowns {
    absolute = offIfZero("absolute_cooldown", absolute);
    scheduled = offIfZero("scheduled_cooldown", scheduled);
    failed = offIfZero("failed_cooldown", failed);
    notFound = offIfZero("not_found_cooldown", notFound);
  }

  private static Duration offIfZero(String field, Duration d) {
    check(d == null || !d.isNegative(), field, "must not be negative, got " + d);
    return d == null || d.isZero() ? null : d;
  }

  public Cooldowns withAbsolute(Duration d) {
    return new Cooldowns(d, scheduled, failed, notFound);
  }

  public Cooldowns withScheduled(Duration d) {
    return new Cooldowns(absolute, d, failed, notFound);
  }

  public Cooldowns withFailed(Duration d) {
    return new Cooldowns(absolute, scheduled, d, notFound);
  }

  public Cooldowns withNotFound(Duration d) {
    return new Cooldowns(absolute, scheduled, failed, d);
  }
}
