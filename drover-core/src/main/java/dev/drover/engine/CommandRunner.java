package dev.drover.engine;

import dev.drover.Outcome;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs a command task type's command line for one task; see {@code engine.command.CommandExecutor}.
 */
@FunctionalInterface
public interface CommandRunner {
  /**
   * Runs the command to its end (or timeout) and says how it ended; throws when the calling thread
   * is interrupted, after stopping the process tree.
   */
  Outcome run(TaskType type, TaskArguments arguments, Path runDir, Map<String, String> env)
      throws InterruptedException;
}
