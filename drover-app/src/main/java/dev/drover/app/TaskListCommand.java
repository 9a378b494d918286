package dev.drover.app;

import dev.drover.Drover;
import dev.drover.model.Task;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code drover task list}: the tasks due now (the default) or every task, oldest id first. */
@Command(
    name = "list",
    description = {
      "List the tasks due now, or every task with --all.",
      "",
      "A task is due when it waits for its next run (next_run_not_scheduled) and next_run has "
          + "passed. "
          + "For other filters use 'drover task search'."
    })
final class TaskListCommand extends BaseCommand {
  @Option(names = "--all", description = "List every task, whatever its status and next run.")
  boolean all;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      split = ",",
      description = "Only tasks of these types (repeatable, or comma-separated).")
  List<String> types;

  @Option(names = "--limit", paramLabel = "N", description = "Show at most N tasks. Default: 100.")
  Integer limit = 100;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    Inputs.positive("--limit", limit);
    try (Drover drover = root().open(false)) {
      TaskQuery query =
          new TaskQuery(
              null,
              types,
              all ? null : List.of(TaskStatus.NEXT_RUN_NOT_SCHEDULED),
              null,
              null,
              all ? null : drover.now(),
              null,
              limit + 1);
      List<Task> tasks = drover.taskSearch(query);
      boolean more = tasks.size() > limit;
      tasks = more ? tasks.subList(0, limit) : tasks;
      if (output.json) {
        JsonViews.print(out(), JsonViews.array(tasks, JsonViews::task));
        return 0;
      }
      long total = TaskAddCommand.taskCount(drover);
      String what = all ? "tasks" : "tasks due now";
      if (tasks.isEmpty()) {
        out().println("no " + what + "; " + total + " tasks in all");
      } else {
        Tables.tasks(tasks).print(out());
        out()
            .println(
                (more
                        ? "first " + limit + " " + what + " shown (--limit)"
                        : tasks.size() + " " + what)
                    + "; "
                    + total
                    + " tasks in all"
                    + (all ? "" : " (--all lists them)"));
      }
    }
    return 0;
  }
}
