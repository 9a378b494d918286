package dev.drover.engine;

import dev.drover.model.Claim;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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

  /**
   * The run's directory, created on first use: most handlers write no files, and creating a
   * directory for every run before its handler starts cost more than a no-op handler itself.
   */
  @Override
  public Path runDir() {
    try {
      return Files.createDirectories(runDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the run directory " + runDir, e);
    }
  }
}
