package dev.drover.app;

import dev.drover.Drover;
import dev.drover.model.TaskStatus;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code drover task pause ID... [--tree]}. */
@Command(
    name = "pause",
    description =
        "Pause tasks waiting for a run: never due until resumed. A running task finishes its run "
            + "and is paused then.")
final class TaskPauseCommand extends TaskControlCommand {
  @Override
  String apply(Drover drover, List<Long> taskIds) {
    String line = "paused " + tasks(drover.taskPause(taskIds, tree));
    long running = given.stream().filter(t -> t.status() == TaskStatus.NEXT_RUN_SCHEDULED).count();
    return running == 0
        ? line
        : line + "; " + tasks((int) running) + " running: each finishes its run and is paused then";
  }
}
