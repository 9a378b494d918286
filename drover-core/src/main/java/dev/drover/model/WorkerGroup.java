package dev.drover.model;

import static dev.drover.ValidationException.check;

/** Caps the workers of several task types together. */
public record WorkerGroup(String name, int maxWorkers) {
  public WorkerGroup {
    check(name != null && !name.isBlank(), "worker_groups", "a worker group needs a name");
    check(maxWorkers > 0, "max_workers", "must be positive, got " + maxWorkers);
  }
}
