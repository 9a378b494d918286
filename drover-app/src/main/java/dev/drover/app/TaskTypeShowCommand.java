package dev.drover.app;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.model.DurationText;
import dev.drover.model.TaskType;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code drover task-type show NAME}: every setting of one task type. */
@Command(name = "show", description = "Show every setting of one task type.")
final class TaskTypeShowCommand extends BaseCommand {
  @Parameters(paramLabel = "NAME", description = "The task type's name.")
  String name;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    try (Drover drover = root().open(false)) {
      TaskType t =
          drover
              .taskType(name)
              .orElseThrow(
                  () -> new ValidationException("NAME", "unknown task type '" + name + "'"));
      if (output.json) {
        JsonViews.print(out(), JsonViews.taskType(t));
        return 0;
      }
      Table table =
          new Table("SETTING", "VALUE")
              .row("name", t.name())
              .row("description", t.description().isEmpty() ? null : t.description())
              .row("cron", t.cron() == null ? null : t.cron().expression())
              .row("time_zone", t.cron() == null ? null : t.cron().zone().getId())
              .row("default_interval", DurationText.format(t.defaultInterval()))
              .row("min_interval", DurationText.format(t.minInterval()))
              .row("max_interval", DurationText.format(t.maxInterval()))
              .row("backoff_factor", t.backoffFactor())
              .row("max_queue_length", t.maxQueueLength())
              .row("num_retries", t.numRetries())
              .row("retry_delay", DurationText.format(t.effectiveRetryDelay()))
              .row("lease", DurationText.format(t.lease()))
              .row("timeout", DurationText.format(t.timeout()))
              .row("max_workers", t.maxWorkers())
              .row("group", t.workerGroup())
              .row("concurrency_key", t.concurrencyKey())
              .row("max_per_key", t.maxPerKey())
              .row(
                  "runs",
                  t.command() == null
                      ? "java handler"
                      : "command " + JsonViews.compact(JsonViews.taskType(t).get("command")))
              .row("working_dir", t.workingDir())
              .row("children_rule", t.childrenRule().dbName())
              .row("run_history", t.runHistory().dbName());
      for (Map.Entry<String, String> e : t.env().entrySet()) {
        table.row("env." + e.getKey(), e.getValue());
      }
      table.print(out());
    }
    return 0;
  }
}
