package dev.drover;

import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a handler gets: the claimed task, its run and attempt, the task type, and a directory of its
 * own for files the run produces (kept under the data directory, one per run).
 *
 * @param task the task as claimed
 * @param runId the run's backend id, {@code <task id>.<attempt>}
 * @param attempt which attempt at the task this run is, counting from 1
 * @param type the task's type
 * @param runDir the run's directory; see {@link #runDir()}
 */
public record TaskContext(Task task, String runId, int attempt, TaskType type, Path runDir) {
  public TaskArguments arguments() {
    return task.arguments();
  }

  public long taskId() {
    return task.id();
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
