package dev.drover.app;

import dev.drover.Drover;
import dev.drover.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
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
    // The rows are gone first: a directory left by a failed removal is only disk, never a task.
    Path runsDir = RunnerSetup.runsDir(root());
    int dirs = 0;
    for (Store.DeletedRun r : d.runs()) {
      if (removeTree(runsDir.resolve(r.type()).resolve(r.backendId()))) {
        dirs++;
      }
    }
    return "deleted "
        + tasks(d.tasks())
        + ", "
        + d.runs().size()
        + (d.runs().size() == 1 ? " run" : " runs")
        + " and "
        + dirs
        + (dirs == 1 ? " run directory" : " run directories");
  }

  private boolean removeTree(Path dir) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
      return true;
    } catch (IOException e) {
      err().println("warning: could not remove " + dir + ": " + e.getMessage());
      return false;
    }
  }
}
