package dev.drover.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.model.ChildrenRule;
import dev.drover.model.RunHistory;
import dev.drover.model.TaskType;
import java.util.List;

/**
 * A task type from a request body: the keys of its JSON view ({@code drover task-type show
 * --json}), each optional but {@code name}. Errors name the key as the view spells it.
 */
final class TaskTypeJson {
  static final List<String> KEYS =
      List.of(
          "name",
          "description",
          "cron",
          "time_zone",
          "default_interval",
          "min_interval",
          "max_interval",
          "backoff_factor",
          "max_queue_length",
          "num_retries",
          "retry_delay",
          "lease",
          "timeout",
          "max_workers",
          "group",
          "concurrency_key",
          "max_per_key",
          "command",
          "working_dir",
          "env",
          "children_rule",
          "run_history");

  private TaskTypeJson() {}

  static TaskType parse(JsonNode body) {
    Fields f = Fields.of(body, "", "{\"name\": \"fetch\", \"default_interval\": \"1d\"}");
    f.onlyKeys(KEYS);
    TaskType.Builder b =
        TaskType.builder(f.requiredText("name", "a task type name"))
            .description(f.text("description"))
            .defaultInterval(duration(f, "default_interval"))
            .minInterval(duration(f, "min_interval"))
            .maxInterval(duration(f, "max_interval"))
            .retryDelay(duration(f, "retry_delay"))
            .lease(duration(f, "lease"))
            .timeout(duration(f, "timeout"))
            .workerGroup(f.text("group"))
            .command(f.texts("command"))
            .workingDir(f.text("working_dir"))
            .env(f.textMap("env"))
            .concurrencyKey(f.text("concurrency_key"))
            .maxPerKey(f.integer("max_per_key", 1));
    String childrenRule = f.text("children_rule");
    if (childrenRule != null) {
      b.childrenRule(ChildrenRule.parse(f.name("children_rule"), childrenRule));
    }
    String runHistory = f.text("run_history");
    if (runHistory != null) {
      b.runHistory(RunHistory.parse(f.name("run_history"), runHistory));
    }
    String cron = f.text("cron");
    String zone = f.text("time_zone");
    if (cron != null) {
      b.cron(cron, zone);
    } else if (zone != null) {
      throw new ValidationException("time_zone", "only applies with cron");
    }
    Double backoff = f.number("backoff_factor");
    if (backoff != null) {
      ValidationException.check(
          cron == null,
          "backoff_factor",
          "cannot be combined with cron: a cron type does not adapt");
      b.backoffFactor(backoff);
    }
    Long queue = f.whole("max_queue_length", 1, Long.MAX_VALUE);
    if (queue != null) {
      b.maxQueueLength(queue);
    }
    Integer retries = f.integer("num_retries", 0);
    if (retries != null) {
      b.numRetries(retries);
    }
    Integer workers = f.integer("max_workers", 1);
    if (workers != null) {
      b.maxWorkers(workers);
    }
    return CommandTemplate.checked(b.build());
  }

  private static java.time.Duration duration(Fields f, String key) {
    return ApiBridge.duration(f.name(key), f.text(key));
  }
}
