package dev.drover.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.model.DurationText;
import dev.drover.model.RunHistory;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code drover task show ID}: one task and its most recent runs. */
@Command(name = "show", description = "Show one task and its most recent runs.")
final class TaskShowCommand extends BaseCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  String id;

  @Option(
      names = "--runs",
      paramLabel = "N",
      description = "How many recent runs to show. Default: 10.")
  Integer runs = 10;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    long taskId = Inputs.ids("ID", List.of(id)).get(0);
    Inputs.positive("--runs", runs);
    try (Drover drover = root().open(false)) {
      Task t =
          drover.task(taskId).orElseThrow(() -> new ValidationException("ID", "no task " + taskId));
      List<TaskRun> recent = drover.taskRuns(List.of(taskId), null, runs);
      TaskType type = drover.taskType(t.type()).orElse(null);
      // A cron type's next run reads on its zone's wall clock; its interval is not used.
      TaskType cron = type != null && type.cron() != null ? type : null;
      boolean failuresOnly = type != null && type.runHistory() == RunHistory.FAILURES;
      TaskFamily family = drover.taskFamily(taskId).orElseThrow();
      if (output.json) {
        ObjectNode o = Json.object();
        o.set("task", JsonViews.taskInFamily(t, family));
        o.set("runs", JsonViews.array(recent, JsonViews::taskRun));
        JsonViews.print(out(), o);
        return 0;
      }
      new Table("FIELD", "VALUE")
          .row("id", t.id())
          .row("type", t.type())
          .row("args", JsonViews.compact(t.arguments().args()))
          .row("kwargs", JsonViews.compact(t.arguments().kwargs()))
          .row("policy", Tables.name(t.policy()))
          .row("priority", Tables.name(t.priority()))
          .row("status", TaskTreeCommand.word(t, family, Instant.now()) + statusNote(t, family))
          .row("parent", family.parent() == null ? "-" : family.parent())
          .row("root", family.root())
          .row(
              "children",
              family.childrenTotal() == 0
                  ? "-"
                  : family.childrenTotal()
                      + " ("
                      + family.childrenPending()
                      + " pending, "
                      + family.childrenFailed()
                      + " failed)")
          .row("next_run", Tables.nextRun(t.nextRun(), cron))
          .row(
              "current_interval",
              cron == null || t.policy() != TaskPolicy.RECURRING
                  ? DurationText.format(t.currentInterval())
                  : "not used: cron " + cron.cron())
          .row("retries_left", t.retriesLeft())
          .print(out());
      out().println();
      String kept =
          failuresOnly
              ? " (task type " + t.type() + " keeps only the runs that did not succeed)"
              : "";
      if (recent.isEmpty()) {
        out().println((failuresOnly ? "no failed runs" : "no runs yet") + kept);
      } else {
        out().println("most recent runs" + kept + ":");
        Path runsDir = RunnerSetup.runsDir(root());
        Tables.runs(recent, r -> Tables.logDir(runsDir, t.type(), r)).print(out());
      }
    }
    return 0;
  }

  private static String statusNote(Task t, TaskFamily f) {
    if (t.status() != TaskStatus.DISABLED) {
      return "";
    }
    return f.disabledByOperator()
        ? " (by an operator: task enable or task retry runs it again)"
        : " (failed for good: task retry runs it again)";
  }
}
