package dev.drover.app;

import dev.drover.Drover;
import dev.drover.config.ConfigFile;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;

/**
 * {@code drover demo}: sets up the example archive-mirroring scenario from {@code examples/} and
 * shows what is due. Idempotent: an example task that exists already, in any status, is not
 * added again.
 */
@Command(name = "demo", description = {
    "Set up the example mirroring scenario and show what is due.",
    "",
    "Applies examples/drover.yaml, adds the tasks of examples/tasks.jsonl (each only once, however "
        + "often it runs), then shows the status table and the tasks due now. examples/ is read from "
        + "the working directory, or from the copy bundled in the jar."})
final class DemoCommand extends BaseCommand {
  private static final int SHOWN = 20;

  @Override
  public Integer call() {
    try (ExampleFile configFile = ExampleFile.open("drover.yaml");
        ExampleFile tasksFile = ExampleFile.open("tasks.jsonl")) {
      ConfigFile config = ConfigFile.read(configFile.path());
      List<TaskFile.Line> tasks = TaskFile.read(tasksFile.path(), tasksFile.shownAs());
      boolean existed = root().storeExists();
      PrintWriter out = out();
      try (Drover drover = root().open(true)) {
        out.println((existed ? "using the store at " : "created a store at ") + root().location().describe());
        out.println("applied " + configFile.shownAs() + ":");
        ConfigApplyCommand.print(out, config.applyTo(drover.store()));
        List<TaskFile.Line> missing = missing(drover, tasks);
        TaskAddCommand.create(drover, missing, tasksFile.shownAs());
        out.println("tasks from " + tasksFile.shownAs() + ": " + missing.size() + " added, "
            + (tasks.size() - missing.size()) + " already present");
        out.println();
        StatusCommand.print(out, drover);
        out.println();
        showDue(out, drover);
      }
    }
    return 0;
  }

  /** The example tasks not stored yet, whatever the stored ones' status or next run. */
  private static List<TaskFile.Line> missing(Drover drover, List<TaskFile.Line> tasks) {
    List<String> types = tasks.stream().map(l -> l.task().type()).distinct().toList();
    Set<String> stored = new HashSet<>();
    for (Task t : drover.taskSearch(new TaskQuery(null, types, null, null, null, null, null, null))) {
      stored.add(key(t.type(), t.arguments().toJson(), t.policy().dbName(), String.valueOf(t.priority())));
    }
    return tasks.stream().filter(l -> {
      NewTask t = l.task();
      return stored.add(key(t.type(), t.arguments().toJson(), t.policy().dbName(), String.valueOf(t.priority())));
    }).toList();
  }

  private static String key(String... parts) {
    return String.join("\u0000", parts);
  }

  private static void showDue(PrintWriter out, Drover drover) {
    List<Task> due = drover.taskSearch(new TaskQuery(null, null, List.of(TaskStatus.NEXT_RUN_NOT_SCHEDULED),
        null, null, drover.now(), null, SHOWN + 1));
    if (due.isEmpty()) {
      out.println("no tasks are due now");
      return;
    }
    out.println("due now" + (due.size() > SHOWN ? " (first " + SHOWN + ")" : "") + ":");
    Tables.tasks(due.subList(0, Math.min(SHOWN, due.size()))).print(out);
    out.println();
    out.println("more: 'drover task list --all', 'drover task show ID', 'drover status', 'drover --help'");
  }
}
