package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Json;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a runner that exits when idle still waits for ({@link Store#taskWaiting}): tasks waiting for
 * a retry and one-shot tasks due later, each with its first due time; not the next regular run of a
 * recurring task, nor work that is due already, nor another type's. Mixed into {@link
 * StoreContractTest}, so it runs on every database.
 */
interface WaitingContract {
  Store store();

  private static Instant t0() {
    return LeaseContract.T0;
  }

  private static NewTask oneshot(String type, int i, Instant due) {
    return NewTask.oneshot(type, TaskArguments.of(List.of(i), null)).withNextRun(due);
  }

  private static NewTask recurring(String type, int i, Instant due) {
    return NewTask.recurring(type, TaskArguments.of(List.of(i), null)).withNextRun(due);
  }

  /** Claims the one task of {@code type} due at {@code at} and ends its run failed then. */
  private static void failTheDueTask(Store s, TaskType type, Instant at) {
    Claim c = Passes.claim(s, type, "r", at, LeaseContract.LEASE, 1).get(0);
    assertThat(
            Passes.complete(
                s,
                "r",
                List.of(
                    new Completion(c.lease(), TaskRunStatus.FAILED, Json.object(), at, c, null)),
                at))
        .as("the failed run is written")
        .isEmpty();
  }

  @Test
  default void retriesAndOneShotTasksDueLaterAreWaitedForEachWithItsFirstDueTime() {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("work")
            .numRetries(2)
            .retryDelay(Duration.ofMinutes(10))
            .defaultInterval(Duration.ofDays(1))
            .build());
    s.taskTypeCreate(TaskType.builder("other").build());
    TaskType work = s.taskTypeGet("work").orElseThrow();
    Instant hour = t0().plus(Duration.ofHours(1));
    s.taskCreate(List.of(oneshot("work", 1, t0())), t0());
    failTheDueTask(s, work, t0()); // its retry comes due ten minutes on
    s.taskCreate(
        List.of(
            oneshot("work", 2, hour),
            oneshot("work", 3, hour.plus(Duration.ofHours(1))),
            recurring("work", 4, hour.minus(Duration.ofMinutes(30))), // its next regular run
            oneshot("work", 5, t0()), // due now: claimable, not waited for
            oneshot("other", 6, t0().plus(Duration.ofMinutes(1)))),
        t0());

    assertThat(s.taskWaiting(List.of("work"), t0()))
        .isEqualTo(new TaskWaiting(1, t0().plus(Duration.ofMinutes(10)), 2, hour));
    assertThat(s.taskWaiting(List.of("work", "other"), t0()).firstLater())
        .isEqualTo(t0().plus(Duration.ofMinutes(1)));
    assertThat(s.taskWaiting(List.of("absent"), t0())).isEqualTo(TaskWaiting.NONE);
  }

  /**
   * A recurring task whose run failed waits for its retry; once a retry's run fails with none left,
   * its retries reset and it waits for its next regular run, which is not waited for.
   */
  @Test
  default void aRecurringTaskWaitsForItsRetriesButNotForItsNextRegularRun() {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("poll")
            .numRetries(1)
            .retryDelay(Duration.ofMinutes(10))
            .defaultInterval(Duration.ofDays(1))
            .build());
    TaskType poll = s.taskTypeGet("poll").orElseThrow();
    s.taskCreate(List.of(recurring("poll", 1, t0())), t0());
    failTheDueTask(s, poll, t0());
    TaskWaiting afterOneFailure = s.taskWaiting(List.of("poll"), t0());
    assertThat(afterOneFailure.retries()).isOne();
    assertThat(afterOneFailure.later()).isZero();

    Instant retryDue = afterOneFailure.firstRetry();
    failTheDueTask(s, poll, retryDue);
    assertThat(s.taskWaiting(List.of("poll"), retryDue)).isEqualTo(TaskWaiting.NONE);
  }
}
