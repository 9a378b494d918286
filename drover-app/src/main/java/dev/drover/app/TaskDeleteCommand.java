package dev.drover.app;

import dev.drover.Drover;
import dev.drover.store.Store;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code drover task delete ID... [--tree]}: tasks, their runs and their run directories. */
@Command(
    name = "delete",
    description = {
      "Delete tasks with all their runs and run directories (a running task is cancelled first).",
      "Use --tree to delete a task and every task below it."
    })
final class TaskDeleteCommand extends TaskControlCommand {
  @Override
  String apply(Drover drover, List<Long> taskIds) {
    Store.TaskDeletion d = drover.taskDelete(taskIds, tree);
    int dirs =
        RunDirectories.remove(
            RunnerSetup.runsDir(root()), d.runs(), w -> err().println("warning: " + w));
    return summary(d, dirs);
  }

  /** What a deletion removed, in one line: tasks, runs and run directories. */
  static String summary(Store.TaskDeletion d, int dirs) {
    return "deleted "
        + tasks(d.tasks())
        + ", "
        + d.runs().size()
        + (d.runs().size() == 1 ? " run" : " runs")
        + " and "
        + dirs
        + (dirs == 1 ? " run directory" : " run directories");
  }
}
