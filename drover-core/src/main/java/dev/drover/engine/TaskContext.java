package dev.drover.engine;

import dev.drover.model.Claim;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.nio.file.Path;

/**
 * What a handler gets: the claimed task and its run, the task type, and a directory of its own
 * for files the run produces (kept under the data directory, one per run).
 */
public record TaskContext(Claim claim, TaskType type, Path runDir) {
  public TaskArguments arguments() {
    return claim.task().arguments();
  }

  public long taskId() {
    return claim.task().id();
  }

  public String runId() {
    return claim.run().backendId();
  }
}
