package dev.drover.app;

import dev.drover.Drover;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code drover task cancel ID... [--tree]}. */
@Command(
    name = "cancel",
    description = {
      "Cancel tasks that are not final: disabled by an operator, nothing charged.",
      "A running task is stopped by its runner within a third of its lease; its run is recorded "
          + "cancelled. A waiting parent counts a cancelled child as failed."
    })
final class TaskCancelCommand extends TaskControlCommand {
  @Override
  String apply(Drover drover, List<Long> taskIds) {
    return "cancelled " + tasks(drover.taskCancel(taskIds, tree));
  }
}
