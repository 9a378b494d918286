package dev.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Next fire times of cron schedules, pinned across the daylight saving changes of Europe/Paris in
 * 2026: on Sunday 29 March at 02:00 the clock jumps to 03:00 (CET +01:00 to CEST +02:00), and on
 * Sunday 25 October at 03:00 it falls back to 02:00 (CEST to CET), so 02:00-02:59 happens twice.
 */
class CronScheduleTest {
  static final String PARIS = "Europe/Paris";

  /** The first {@code count} fire times after {@code after} (an ISO offset date-time). */
  static List<OffsetDateTime> fires(String cron, String zone, String after, int count) {
    CronSchedule schedule = CronSchedule.of(cron, zone);
    List<OffsetDateTime> out = new ArrayList<>();
    Instant t = OffsetDateTime.parse(after).toInstant();
    for (int i = 0; i < count; i++) {
      t = schedule.nextFireAfter(t);
      out.add(t.atZone(schedule.zone()).toOffsetDateTime());
    }
    return out;
  }

  static List<OffsetDateTime> times(String... isoOffsetTimes) {
    return List.of(isoOffsetTimes).stream().map(OffsetDateTime::parse).toList();
  }

  @Test
  void aDailyTimeSkippedBySpringForwardRunsOnceAnHourLater() {
    assertThat(fires("30 2 * * *", PARIS, "2026-03-28T03:00+01:00", 3))
        .isEqualTo(
            times("2026-03-29T03:30+02:00", "2026-03-30T02:30+02:00", "2026-03-31T02:30+02:00"));
  }

  @Test
  void timesSkippedBySpringForwardStillFireWhenAskedJustAfterTheChange() {
    assertThat(fires("30 2 * * *", PARIS, "2026-03-29T03:10+02:00", 2))
        .isEqualTo(times("2026-03-29T03:30+02:00", "2026-03-30T02:30+02:00"));
    // Every quarter hour: 02:15 would be 03:15, which fires anyway, once.
    assertThat(fires("*/15 * * * *", PARIS, "2026-03-29T01:50+01:00", 3))
        .isEqualTo(
            times("2026-03-29T03:00+02:00", "2026-03-29T03:15+02:00", "2026-03-29T03:30+02:00"));
  }

  @Test
  void aDailyTimeRepeatedByFallBackRunsOnceAtItsFirstOccurrence() {
    assertThat(fires("30 2 * * *", PARIS, "2026-10-24T03:00+02:00", 3))
        .isEqualTo(
            times("2026-10-25T02:30+02:00", "2026-10-26T02:30+01:00", "2026-10-27T02:30+01:00"));
    // Asked during the second 02:00-02:59, after the run at 02:30 summer time: not again today.
    assertThat(fires("30 2 * * *", PARIS, "2026-10-25T02:10+01:00", 1))
        .isEqualTo(times("2026-10-26T02:30+01:00"));
  }

  @Test
  void hourlyHasNoTwoOClockOnTheSpringForwardNight() {
    assertThat(fires("0 * * * *", PARIS, "2026-03-29T00:30+01:00", 3))
        .isEqualTo(
            times("2026-03-29T01:00+01:00", "2026-03-29T03:00+02:00", "2026-03-29T04:00+02:00"));
  }

  @Test
  void hourlyRunsTwoOClockOnceOnTheFallBackNight() {
    assertThat(fires("0 * * * *", PARIS, "2026-10-25T00:30+02:00", 4))
        .isEqualTo(
            times(
                "2026-10-25T01:00+02:00",
                "2026-10-25T02:00+02:00",
                "2026-10-25T03:00+01:00",
                "2026-10-25T04:00+01:00"));
  }

  @Test
  void everyMinuteSkipsTheRepeatedHourAfterItsFirstPass() {
    assertThat(fires("* * * * *", PARIS, "2026-10-25T02:58:30+02:00", 2))
        .isEqualTo(times("2026-10-25T02:59+02:00", "2026-10-25T03:00+01:00"));
    // Asked during the second pass of 02:00-02:59 (after every one of its minutes ran once).
    assertThat(fires("* * * * *", PARIS, "2026-10-25T02:05+01:00", 1))
        .isEqualTo(times("2026-10-25T03:00+01:00"));
  }

  @Test
  void theNextFireTimeIsStrictlyAfter() {
    Instant fire = Instant.parse("2026-01-01T02:30:00Z");
    CronSchedule schedule = CronSchedule.of("30 2 * * *", null);
    assertThat(schedule.nextFireAfter(fire)).isEqualTo(fire.plus(Duration.ofDays(1)));
    assertThat(schedule.nextFireAfter(fire.minusMillis(1))).isEqualTo(fire);
  }

  @Test
  void utcIsTheDefaultZoneAndWhitespaceIsCollapsed() {
    CronSchedule schedule = CronSchedule.of("  */15   9-17 * * MON-FRI ", null);
    assertThat(schedule.zone().getId()).isEqualTo("UTC");
    assertThat(schedule.expression()).isEqualTo("*/15 9-17 * * MON-FRI");
    assertThat(schedule.toString()).isEqualTo("*/15 9-17 * * MON-FRI (UTC)");
    // Friday 2026-01-02 17:45 UTC, then Monday 09:00.
    assertThat(fires("*/15 9-17 * * MON-FRI", null, "2026-01-02T17:40Z", 2))
        .isEqualTo(times("2026-01-02T17:45Z", "2026-01-05T09:00Z"));
    assertThat(schedule).isEqualTo(CronSchedule.of("*/15 9-17 * * MON-FRI", "UTC"));
  }

  @Test
  void theNominalPeriodIsTheGapBetweenTheNextTwoFires() {
    CronSchedule daily = CronSchedule.of("30 2 * * *", PARIS);
    assertThat(daily.periodAfter(Instant.parse("2026-01-01T00:00:00Z")))
        .isEqualTo(Duration.ofDays(1));
    // 03:30 on the spring-forward day (02:30 does not exist), then 02:30 the next day.
    assertThat(daily.periodAfter(Instant.parse("2026-03-29T00:00:00Z")))
        .isEqualTo(Duration.ofHours(23));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0 0 0 * * *|not a Unix cron expression",
        "0 0 ? * *|not a Unix cron expression",
        "0 0 L * *|not a Unix cron expression",
        "@daily|not a Unix cron expression",
        "61 * * * *|Value 61 not in range [0, 59]",
        "0 0 30 2 *|never fires",
        "every day|not a Unix cron expression",
      })
  void anInvalidExpressionNamesCron(String expression, String problem) {
    assertThatThrownBy(() -> CronSchedule.of(expression, PARIS))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("cron: '" + expression + "' ")
        .hasMessageContaining(problem)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @ParameterizedTest
  @CsvSource({"Europe/Pariss", "+02:00", "CEST", "''"})
  void anInvalidZoneNamesTimeZone(String zone) {
    assertThatThrownBy(() -> CronSchedule.of("0 * * * *", zone))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "time_zone: '" + zone + "' is not an IANA time zone id (such as Europe/Paris or UTC)");
  }

  @Test
  void aCronTypeHasNoIntervalsAndAZoneNeedsACron() {
    assertThatThrownBy(
            () ->
                TaskType.builder("t")
                    .cron("0 * * * *")
                    .defaultInterval(Duration.ofHours(1))
                    .build())
        .hasMessageStartingWith("default_interval: cannot be combined with cron");
    assertThatThrownBy(() -> TaskType.builder("t").cron("0 * * * *").backoffFactor(2).build())
        .hasMessageStartingWith("backoff_factor: cannot be combined with cron");
    assertThatThrownBy(() -> TaskType.builder("t").timeZone(PARIS).build())
        .hasMessage("time_zone: applies only to a cron schedule (set cron too)");
    TaskType type = TaskType.builder("t").cron("0 * * * *", PARIS).build();
    assertThat(type.recurs()).isTrue();
    assertThat(type.toBuilder().build()).isEqualTo(type);
  }
}
