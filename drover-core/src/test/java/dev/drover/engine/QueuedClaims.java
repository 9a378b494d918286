package dev.drover.engine;

import dev.drover.Json;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.store.Claim;
import dev.drover.store.Lease;
import java.time.Instant;
import java.util.List;

/** Claims as a runner holds them before a worker begins them, for the engine's unit tests. */
final class QueuedClaims {
  private QueuedClaims() {}

  /**
   * The first attempt's claim of one-shot task {@code id} of {@code type}, leased until {@code
   * leaseUntil}, its run opened in memory at {@code scheduled}.
   */
  static Claim of(long id, String type, Instant leaseUntil, Instant scheduled) {
    Task task =
        new Task(
            id,
            type,
            TaskArguments.of(List.of(id), null),
            leaseUntil,
            null,
            TaskStatus.NEXT_RUN_SCHEDULED,
            TaskPolicy.ONESHOT,
            0,
            null);
    TaskRun run =
        new TaskRun(
            0, id, id + ".1", scheduled, null, null, Json.object(), TaskRunStatus.SCHEDULED);
    return new Claim(task, run, new Lease(id, 1));
  }
}
