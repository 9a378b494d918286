package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.NewTask;
import dev.drover.model.RunToSchedule;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store.UpsertResult;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cron task types: stored with their zone, their recurring tasks first due at the next fire time,
 * and back at the first fire time after each run's end, whichever way the run ends (reported, or
 * completed by a runner's pass). Mixed into {@link StoreContractTest}, so it runs on every
 * database. The type runs at 02:30 in Paris, across the spring-forward night of 29 March 2026, when
 * 02:30 does not exist and the run is at 03:30 summer time (01:30 UTC).
 */
interface CronContract {
  Store store();

  /** Saturday 28 March 2026, 13:00 in Paris. */
  Instant SATURDAY = Instant.parse("2026-03-28T12:00:00Z");

  /** Sunday 29 March, 03:30 summer time: the fire time replacing 02:30. */
  Instant SUNDAY_FIRE = Instant.parse("2026-03-29T01:30:00Z");

  /** Monday 30 March, 02:30 summer time. */
  Instant MONDAY_FIRE = Instant.parse("2026-03-30T00:30:00Z");

  private static TaskType nightly() {
    return TaskType.builder("nightly")
        .cron("30 2 * * *", "Europe/Paris")
        .numRetries(1)
        .retryDelay(Duration.ofMinutes(10))
        .build();
  }

  private Task created(NewTask task, Instant now) {
    store().taskTypeCreate(nightly());
    return store().taskCreate(List.of(task), now).get(0);
  }

  private static NewTask report(String name) {
    return NewTask.recurring("nightly", TaskArguments.of(List.of(name), Map.of()));
  }

  private Task reload(Task t) {
    return store().taskGet(List.of(t.id())).get(0);
  }

  @Test
  default void aCronTypeRoundTripsWithItsZone() {
    Store s = store();
    s.taskTypeCreate(nightly());
    assertThat(s.taskTypeGet("nightly")).contains(nightly());
    assertThat(s.taskTypeList()).containsExactly(nightly());

    TaskType inUtc = nightly().toBuilder().cron("0 * * * *").build();
    assertThat(inUtc.cron().zone().getId()).isEqualTo("UTC");
    assertThat(s.taskTypeUpsert(inUtc)).isEqualTo(UpsertResult.UPDATED);
    assertThat(s.taskTypeGet("nightly")).contains(inUtc);

    TaskType intervals =
        inUtc.toBuilder().cron(null, null).defaultInterval(Duration.ofHours(1)).build();
    assertThat(s.taskTypeUpsert(intervals)).isEqualTo(UpsertResult.UPDATED);
    assertThat(s.taskTypeGet("nightly").orElseThrow().cron()).isNull();
  }

  @Test
  default void aRecurringCronTaskFirstComesDueAtTheNextFireTime() {
    Task t = created(report("a"), SATURDAY);
    assertThat(t.nextRun()).isEqualTo(SUNDAY_FIRE);
    assertThat(t.currentInterval())
        .as("the gap between its first two fire times, for information")
        .isEqualTo(Duration.ofHours(23));

    Instant given = SATURDAY.plusSeconds(60);
    assertThat(store().taskCreate(List.of(report("b").withNextRun(given)), SATURDAY))
        .extracting(Task::nextRun)
        .as("a given next_run is kept")
        .containsExactly(given);
    assertThat(
            store()
                .taskCreate(
                    List.of(NewTask.oneshot("nightly", TaskArguments.of(List.of("c"), null))),
                    SATURDAY))
        .extracting(Task::nextRun)
        .as("a one-shot task runs when told, at once by default")
        .containsExactly(SATURDAY);
  }

  @Test
  default void aReportedRunEndSchedulesTheFirstFireTimeAfterTheEnd() {
    Task t = created(report("a"), SATURDAY);
    Duration interval = t.currentInterval();

    end(t, "r1", TaskRunStatus.EVENTFUL, SUNDAY_FIRE.plusSeconds(30));
    assertThat(reload(t).nextRun()).isEqualTo(MONDAY_FIRE);
    assertThat(reload(t).currentInterval()).as("never adapted").isEqualTo(interval);

    end(t, "r2", TaskRunStatus.UNEVENTFUL, MONDAY_FIRE.plusSeconds(30));
    assertThat(reload(t).nextRun()).isEqualTo(MONDAY_FIRE.plus(Duration.ofDays(1)));
    assertThat(reload(t).currentInterval()).isEqualTo(interval);

    Instant failedAt = MONDAY_FIRE.plus(Duration.ofDays(1)).plusSeconds(30);
    end(t, "r3", TaskRunStatus.FAILED, failedAt);
    assertThat(reload(t).nextRun())
        .as("a retry comes after retry_delay")
        .isEqualTo(failedAt.plus(Duration.ofMinutes(10)));
    assertThat(reload(t).retriesLeft()).isZero();

    end(t, "r4", TaskRunStatus.FAILED, failedAt.plus(Duration.ofMinutes(10)));
    Task afterRetries = reload(t);
    assertThat(afterRetries.nextRun())
        .as("retries spent: back to the schedule, retries reset")
        .isEqualTo(MONDAY_FIRE.plus(Duration.ofDays(2)));
    assertThat(afterRetries.retriesLeft()).isEqualTo(1);
    assertThat(afterRetries.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
  }

  @Test
  default void aRunnersCompletionSchedulesTheFirstFireTimeAfterTheEnd() {
    Task t = created(report("a"), SATURDAY);
    TaskType type = store().taskTypeGet("nightly").orElseThrow();
    Claim c =
        Passes.claimStarted(store(), type, "r", SUNDAY_FIRE, Duration.ofMinutes(1), 10).get(0);
    assertThat(c.task().id()).isEqualTo(t.id());
    Passes.complete(
        store(),
        "r",
        List.of(new Completion(c.lease(), TaskRunStatus.EVENTFUL, null, null, c)),
        SUNDAY_FIRE.plusSeconds(5));
    assertThat(reload(t).nextRun()).isEqualTo(MONDAY_FIRE);
    assertThat(reload(t).currentInterval()).isEqualTo(t.currentInterval());
  }

  @Test
  default void fireTimesMissedWhileNoRunnerWasUpAreNotReplayed() {
    Task t = created(report("a"), SATURDAY);
    // Nobody ran it for three days: it is due once, and its run schedules the next fire time.
    Instant thursday = MONDAY_FIRE.plus(Duration.ofDays(3)).plus(Duration.ofHours(5));
    TaskType type = store().taskTypeGet("nightly").orElseThrow();
    List<Claim> claims =
        Passes.claimStarted(store(), type, "r", thursday, Duration.ofMinutes(1), 10);
    assertThat(claims).hasSize(1);
    Passes.complete(
        store(),
        "r",
        List.of(new Completion(claims.get(0).lease(), TaskRunStatus.UNEVENTFUL, null)),
        thursday.plusSeconds(5));
    assertThat(reload(t).nextRun()).isEqualTo(MONDAY_FIRE.plus(Duration.ofDays(4)));
    assertThat(Passes.claim(store(), type, "r", thursday.plusSeconds(6), Duration.ofMinutes(1), 10))
        .isEmpty();
  }

  private void end(Task t, String backendId, TaskRunStatus status, Instant at) {
    store()
        .taskRunSchedule(List.of(new RunToSchedule(t.id(), backendId, null, at.minusSeconds(5))));
    store().taskRunStart(backendId, null, at.minusSeconds(4));
    store().taskRunEnd(backendId, status, null, at);
  }
}
