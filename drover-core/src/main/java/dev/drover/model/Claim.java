package dev.drover.model;

import java.time.Instant;

/**
 * A claimed task: the task as claimed (its {@code nextRun} is the end of the lease), the run the
 * claim opened, and the lease that fences the owner's writes.
 */
public record Claim(Task task, TaskRun run, Lease lease) {
  /** When the lease ends unless it is extended. */
  public Instant leaseUntil() {
    return task.nextRun();
  }
}
