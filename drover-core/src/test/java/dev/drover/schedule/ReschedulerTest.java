package dev.drover.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.model.Limits;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pins the rescheduling arithmetic. The type is the reference example: intervals 64 d in [12 h, 64
 * d], backoff factor 2, 7 retries, retry delay 2 h.
 */
class ReschedulerTest {
  static final Instant END = Instant.parse("2026-05-01T10:00:00Z");
  static final Instant BEFORE = END.minusSeconds(3600);
  static final TaskType TYPE =
      TaskType.builder("load-git")
          .intervals(Duration.ofDays(64), Duration.ofHours(12), Duration.ofDays(64))
          .backoffFactor(2)
          .numRetries(7)
          .retryDelay(Duration.ofHours(2))
          .build();

  static Task task(TaskPolicy policy, Duration interval, int retriesLeft) {
    return new Task(
        1,
        "load-git",
        TaskArguments.empty(),
        BEFORE,
        interval,
        TaskStatus.NEXT_RUN_SCHEDULED,
        policy,
        retriesLeft,
        null);
  }

  static TaskUpdate after(TaskRunStatus status, Task task) {
    return Rescheduler.afterRun(task, TYPE, status, END);
  }

  /** Issue 14 item 22: with no max_interval, growth stops at the limit rather than overflowing. */
  @Test
  void anUnboundedIntervalStopsGrowingAtTheDurationLimit() {
    TaskType wide =
        TaskType.builder("wide")
            .defaultInterval(Duration.ofDays(36_500))
            .backoffFactor(100)
            .build();
    Duration interval = wide.defaultInterval();
    for (int i = 0; i < 20; i++) {
      interval = Rescheduler.adapt(interval, wide, false);
    }
    assertThat(interval).isEqualTo(Limits.MAX_DURATION);
    assertThat(Instant.parse("2026-01-01T00:00:00Z").plus(interval).toEpochMilli()).isPositive();
  }

  @Test
  void eventfulRecurringDividesTheIntervalAndResetsRetries() {
    TaskUpdate u =
        after(TaskRunStatus.EVENTFUL, task(TaskPolicy.RECURRING, Duration.ofDays(64), 3));
    assertThat(u)
        .isEqualTo(
            new TaskUpdate(
                TaskStatus.NEXT_RUN_NOT_SCHEDULED,
                END.plus(Duration.ofDays(32)),
                Duration.ofDays(32),
                7));
  }

  @Test
  void uneventfulRecurringMultipliesTheInterval() {
    TaskUpdate u =
        after(TaskRunStatus.UNEVENTFUL, task(TaskPolicy.RECURRING, Duration.ofDays(8), 7));
    assertThat(u)
        .isEqualTo(
            new TaskUpdate(
                TaskStatus.NEXT_RUN_NOT_SCHEDULED,
                END.plus(Duration.ofDays(16)),
                Duration.ofDays(16),
                7));
  }

  @Test
  void eventfulIsClampedAtTheMinimum() {
    TaskUpdate u =
        after(TaskRunStatus.EVENTFUL, task(TaskPolicy.RECURRING, Duration.ofHours(18), 7));
    assertThat(u.currentInterval()).isEqualTo(Duration.ofHours(12));
    assertThat(u.nextRun()).isEqualTo(END.plus(Duration.ofHours(12)));
  }

  @Test
  void uneventfulIsClampedAtTheMaximum() {
    TaskUpdate u =
        after(TaskRunStatus.UNEVENTFUL, task(TaskPolicy.RECURRING, Duration.ofDays(40), 7));
    assertThat(u.currentInterval()).isEqualTo(Duration.ofDays(64));
    assertThat(u.nextRun()).isEqualTo(END.plus(Duration.ofDays(64)));
  }

  @Test
  void aFactorOfOneKeepsTheInterval() {
    TaskType flat = TYPE.toBuilder().backoffFactor(1).build();
    Task t = task(TaskPolicy.RECURRING, Duration.ofDays(3), 7);
    assertThat(Rescheduler.afterRun(t, flat, TaskRunStatus.EVENTFUL, END).currentInterval())
        .isEqualTo(Duration.ofDays(3));
    assertThat(Rescheduler.afterRun(t, flat, TaskRunStatus.UNEVENTFUL, END).currentInterval())
        .isEqualTo(Duration.ofDays(3));
  }

  @Test
  void successfulOneshotCompletes() {
    for (TaskRunStatus s : new TaskRunStatus[] {TaskRunStatus.EVENTFUL, TaskRunStatus.UNEVENTFUL}) {
      TaskUpdate u = after(s, task(TaskPolicy.ONESHOT, Duration.ofDays(64), 7));
      assertThat(u).isEqualTo(new TaskUpdate(TaskStatus.COMPLETED, BEFORE, Duration.ofDays(64), 7));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = TaskRunStatus.class,
      names = {"FAILED", "LOST"})
  void aFailureWithRetriesLeftRetriesAfterTheDelayWithIntervalUnchanged(TaskRunStatus status) {
    for (TaskPolicy policy : TaskPolicy.values()) {
      TaskUpdate u = after(status, task(policy, Duration.ofDays(32), 7));
      assertThat(u)
          .isEqualTo(
              new TaskUpdate(
                  TaskStatus.NEXT_RUN_NOT_SCHEDULED,
                  END.plus(Duration.ofHours(2)),
                  Duration.ofDays(32),
                  6));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = TaskRunStatus.class,
      names = {"FAILED", "LOST"})
  void whenRetriesRunOutAOneshotTaskIsDisabled(TaskRunStatus status) {
    TaskUpdate u = after(status, task(TaskPolicy.ONESHOT, Duration.ofDays(64), 0));
    assertThat(u).isEqualTo(new TaskUpdate(TaskStatus.DISABLED, BEFORE, Duration.ofDays(64), 0));
  }

  @ParameterizedTest
  @EnumSource(
      value = TaskRunStatus.class,
      names = {"FAILED", "LOST"})
  void whenRetriesRunOutARecurringTaskFallsBackToItsIntervalWithRetriesReset(TaskRunStatus status) {
    TaskUpdate u = after(status, task(TaskPolicy.RECURRING, Duration.ofDays(32), 0));
    assertThat(u)
        .isEqualTo(
            new TaskUpdate(
                TaskStatus.NEXT_RUN_NOT_SCHEDULED,
                END.plus(Duration.ofDays(32)),
                Duration.ofDays(32),
                7));
  }

  @Test
  void retriesCountDownOneFailureAtATime() {
    Task t = task(TaskPolicy.ONESHOT, Duration.ofDays(64), 2);
    TaskUpdate first = after(TaskRunStatus.FAILED, t);
    TaskUpdate second = after(TaskRunStatus.FAILED, withRetries(t, first.retriesLeft()));
    TaskUpdate third = after(TaskRunStatus.FAILED, withRetries(t, second.retriesLeft()));
    assertThat(first.retriesLeft()).isEqualTo(1);
    assertThat(second.retriesLeft()).isZero();
    assertThat(second.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(third.status()).isEqualTo(TaskStatus.DISABLED);
  }

  private static Task withRetries(Task t, int retries) {
    return new Task(
        t.id(),
        t.type(),
        t.arguments(),
        t.nextRun(),
        t.currentInterval(),
        t.status(),
        t.policy(),
        retries,
        t.priority());
  }

  @Test
  void theRetryDelayDefaultsToOneHour() {
    TaskType noDelay = TYPE.toBuilder().retryDelay(null).build();
    TaskUpdate u =
        Rescheduler.afterRun(task(TaskPolicy.ONESHOT, null, 1), noDelay, TaskRunStatus.FAILED, END);
    assertThat(u.nextRun()).isEqualTo(END.plus(Duration.ofHours(1)));
  }

  @ParameterizedTest
  @EnumSource(TaskPolicy.class)
  void permfailedDisablesWhateverThePolicy(TaskPolicy policy) {
    TaskUpdate u = after(TaskRunStatus.PERMFAILED, task(policy, Duration.ofDays(64), 7));
    assertThat(u).isEqualTo(new TaskUpdate(TaskStatus.DISABLED, BEFORE, Duration.ofDays(64), 7));
  }

  @ParameterizedTest
  @EnumSource(
      value = TaskRunStatus.class,
      names = {"SCHEDULED", "STARTED"})
  void nonFinalStatusesDoNotReschedule(TaskRunStatus status) {
    assertThatThrownBy(() -> after(status, task(TaskPolicy.RECURRING, Duration.ofDays(1), 1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void repeatedEventfulRunsHalveDownToTheMinimumAndStayThere() {
    Duration interval = Duration.ofDays(64);
    Duration[] expected = {
      Duration.ofDays(32),
      Duration.ofDays(16),
      Duration.ofDays(8),
      Duration.ofDays(4),
      Duration.ofDays(2),
      Duration.ofDays(1),
      Duration.ofHours(12),
      Duration.ofHours(12)
    };
    for (Duration want : expected) {
      interval = Rescheduler.adapt(interval, TYPE, true);
      assertThat(interval).isEqualTo(want);
    }
  }
}
