package dev.drover.store;

import static dev.drover.store.LeaseContract.LEASE;
import static dev.drover.store.LeaseContract.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a runner about to sleep asks ({@link Store#taskNextDue}): the first due time or lease end
 * within the sleep. Work due already does not hide what comes due later, of any type.
 */
interface NextDueContract {
  Store store();

  private static void create(Store s, String type, Object argument, Instant due) {
    s.taskCreate(
        List.of(NewTask.oneshot(type, TaskArguments.of(List.of(argument), null)).withNextRun(due)),
        T0.minusSeconds(200));
  }

  @Test
  default void theNextDueTimeIsTheFirstWithinTheSleep() {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("work").build());
    s.taskTypeCreate(TaskType.builder("other").build());
    create(s, "work", "leased", T0.minusSeconds(100));
    create(s, "work", "due already", T0.minusSeconds(10));
    create(s, "other", "later", T0.plusSeconds(5));
    // Claimed 57 s before T0: its lease ends 3 s after.
    List<Claim> claimed =
        Passes.claim(s, s.taskTypeGet("work").orElseThrow(), "r", T0.minusSeconds(57), LEASE, 5);
    assertThat(claimed).hasSize(1);
    assertThat(claimed.get(0).leaseUntil()).isEqualTo(T0.plusSeconds(3));

    List<String> both = List.of("work", "other");
    assertThat(s.taskNextDue(both, T0, T0.plusSeconds(60)))
        .as("the lease's end, not the task due already")
        .contains(T0.plusSeconds(3));
    assertThat(s.taskNextDue(both, T0.plusSeconds(3), T0.plusSeconds(60)))
        .as("strictly after")
        .contains(T0.plusSeconds(5));
    assertThat(s.taskNextDue(List.of("other"), T0, T0.plusSeconds(60))).contains(T0.plusSeconds(5));
    assertThat(s.taskNextDue(both, T0, T0.plusSeconds(3))).as("strictly before").isEmpty();
    assertThat(s.taskNextDue(List.of(), T0, T0.plusSeconds(60))).isEmpty();
    assertThat(s.taskOldestWaiting("work"))
        .as("the oldest waiting task, due already")
        .contains(T0.minusSeconds(10));
  }
}
