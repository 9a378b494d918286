package dev.drover.store;

import dev.drover.model.Task;
import dev.drover.model.TaskRun;
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
}
