package dev.drover.app;

import dev.drover.Drover;
import dev.drover.ValidationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code drover task-type pause NAME}: its tasks are not claimed; running work finishes. */
@Command(
    name = "pause",
    description = "Pause a task type: its tasks are not claimed; work already running finishes.")
class TaskTypePauseCommand extends BaseCommand {
  @Parameters(paramLabel = "NAME", description = "The task type's name.")
  String name;

  @Override
  public Integer call() {
    try (Drover drover = root().open(false)) {
      if (!drover.taskTypePause(name, paused())) {
        throw new ValidationException("NAME", "no task type '" + name + "'; nothing was changed");
      }
      out().println((paused() ? "paused" : "resumed") + " task type " + name);
    }
    return 0;
  }

  boolean paused() {
    return true;
  }

  /** {@code drover task-type resume NAME}. */
  @Command(name = "resume", description = "Resume a paused task type: its tasks are claimed again.")
  static final class Resume extends TaskTypePauseCommand {
    @Override
    boolean paused() {
      return false;
    }
  }
}
