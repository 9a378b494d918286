package dev.drover.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import java.time.Instant;

/**
 * A claimed task: the task as claimed (its {@code nextRun} is the end of the lease), the run the
 * claim opened, and the lease that fences the owner's writes. A runner's queued claim opens its run
 * in memory only: the run is written when its worker has begun it (or with its end), and its {@code
 * id} is 0 until then; its backend id is the task id and attempt either way.
 */
public record Claim(Task task, TaskRun run, Lease lease) {
  /** When the lease ends unless it is extended. */
  public Instant leaseUntil() {
    return task.nextRun();
  }

  /** The metadata a claim's run opens with: the runner whose worker holds it. */
  static ObjectNode openedBy(String owner) {
    ObjectNode metadata = Json.object();
    metadata.put("worker", owner);
    return metadata;
  }

  /**
   * The run a queued claim opens, in memory only: 'scheduled', id 0, its backend id the task id and
   * attempt, with {@code metadata} (see {@link #openedBy}).
   */
  static TaskRun openedRun(long taskId, int attempt, Instant scheduled, ObjectNode metadata) {
    return new TaskRun(
        0,
        taskId,
        taskId + "." + attempt,
        scheduled,
        null,
        null,
        metadata,
        TaskRunStatus.SCHEDULED);
  }
}
