package dev.drover.app;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.model.Task;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code drover task search}: tasks matching every given filter, by id. */
@Command(
    name = "search",
    sortOptions = false,
    description = {
      "Search tasks by id, type, status, priority, policy and next run.",
      "",
      "Filters are combined with AND; an option given several times (or with comma-separated "
          + "values) "
          + "matches any of its values."
    })
final class TaskSearchCommand extends BaseCommand {
  @Option(names = "--id", paramLabel = "ID", description = "Task ids.")
  List<String> ids;

  @Option(names = "--type", paramLabel = "TYPE", split = ",", description = "Task type names.")
  List<String> types;

  @Option(
      names = "--status",
      paramLabel = "STATUS",
      description = "next_run_not_scheduled, next_run_scheduled, completed or disabled.")
  List<String> statuses;

  @Option(names = "--priority", paramLabel = "PRIORITY", description = "high, normal or low.")
  List<String> priorities;

  @Option(names = "--policy", paramLabel = "POLICY", description = "recurring or oneshot.")
  String policy;

  @Option(
      names = "--before",
      paramLabel = "TIME",
      description = "Only tasks with next_run at or before TIME (ISO-8601).")
  String before;

  @Option(
      names = "--after",
      paramLabel = "TIME",
      description = "Only tasks with next_run at or after TIME (ISO-8601).")
  String after;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Return at most N tasks. Default: all.")
  Integer limit;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    TaskQuery query = query();
    try (Drover drover = root().open(false)) {
      List<Task> tasks = drover.taskSearch(query);
      if (output.json) {
        JsonViews.print(out(), JsonViews.array(tasks, JsonViews::task));
      } else if (tasks.isEmpty()) {
        out().println("no tasks match");
      } else {
        Tables.tasks(tasks).print(out());
        out().println(tasks.size() == 1 ? "1 task" : tasks.size() + " tasks");
      }
    }
    return 0;
  }

  private TaskQuery query() {
    Instant start = Inputs.instant("--after", after);
    Instant end = Inputs.instant("--before", before);
    ValidationException.check(
        start == null || end == null || !start.isAfter(end),
        "--after",
        "--after " + after + " is later than --before " + before);
    return new TaskQuery(
        Inputs.ids("--id", ids),
        types,
        Inputs.each("--status", statuses, TaskStatus::parse),
        Inputs.each("--priority", priorities, TaskPriority::parse),
        policy == null ? null : TaskPolicy.parse("--policy", policy),
        end,
        start,
        Inputs.positive("--limit", limit));
  }
}
