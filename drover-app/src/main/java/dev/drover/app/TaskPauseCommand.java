package dev.drover.app;

import dev.drover.Drover;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code drover task pause ID... [--tree]}. */
@Command(
    name = "pause",
    description =
        "Pause tasks waiting for a run: never due until resumed. A running task finishes its run.")
final class TaskPauseCommand extends TaskControlCommand {
  @Override
  String apply(Drover drover, List<Long> taskIds) {
    return "paused " + tasks(drover.taskPause(taskIds, tree));
  }
}
