package dev.drover.app;

import dev.drover.Drover;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code drover task-run list}: the most recent runs, newest first. */
@Command(name = "list", description = "List task runs, newest first.")
final class TaskRunListCommand extends BaseCommand {
  @Option(
      names = "--task",
      paramLabel = "ID",
      description = "Only runs of these tasks (repeatable, or comma-separated).")
  List<String> tasks;

  @Option(
      names = "--status",
      paramLabel = "STATUS",
      description =
          "Only runs in this status: scheduled, started, eventful, uneventful, failed, "
              + "permfailed or lost.")
  String status;

  @Option(names = "--limit", paramLabel = "N", description = "Show at most N runs. Default: 20.")
  Integer limit = 20;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    List<Long> taskIds = Inputs.ids("--task", tasks);
    TaskRunStatus runStatus = status == null ? null : TaskRunStatus.parse("--status", status);
    Inputs.positive("--limit", limit);
    try (Drover drover = root().open(false)) {
      List<TaskRun> runs = drover.taskRuns(taskIds, runStatus, limit);
      if (output.json) {
        JsonViews.print(out(), JsonViews.array(runs, JsonViews::taskRun));
      } else if (runs.isEmpty()) {
        out().println("no task runs match");
      } else {
        Path runsDir = RunnerSetup.runsDir(root());
        Map<Long, String> types = new HashMap<>();
        for (TaskRun r : runs) {
          types.computeIfAbsent(r.taskId(), id -> drover.task(id).map(Task::type).orElse(null));
        }
        Tables.runs(runs, r -> Tables.logDir(runsDir, types.get(r.taskId()), r)).print(out());
      }
    }
    return 0;
  }
}
