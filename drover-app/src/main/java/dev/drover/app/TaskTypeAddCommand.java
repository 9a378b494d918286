package dev.drover.app;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.model.ChildrenRule;
import dev.drover.model.RunHistory;
import dev.drover.model.TaskType;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code drover task-type add}: creates a task type unless one of that name exists (the first
 * definition wins, as in the configuration file's create path).
 */
@Command(
    name = "add",
    sortOptions = false,
    description = {
      "Add a task type.",
      "",
      "If a type of that name exists it is kept as first defined (exit 0); change an existing type "
          + "with 'drover config apply'. Durations read like 90s, 15m, 1h30m, 12h, 7d "
          + "(at most 36500d)."
    })
final class TaskTypeAddCommand extends BaseCommand {
  @Option(
      names = "--name",
      required = true,
      paramLabel = "NAME",
      description = "Unique name, e.g. mirror-git.")
  String name;

  @Option(
      names = "--description",
      paramLabel = "TEXT",
      description = "Free text shown in listings.")
  String description;

  @Option(
      names = "--default-interval",
      paramLabel = "DURATION",
      description =
          "Interval a new recurring task starts with. Without it the type takes only oneshot "
              + "tasks.")
  String defaultInterval;

  @Option(
      names = "--min-interval",
      paramLabel = "DURATION",
      description = "Lower bound of the adaptive interval.")
  String minInterval;

  @Option(
      names = "--max-interval",
      paramLabel = "DURATION",
      description = "Upper bound of the adaptive interval.")
  String maxInterval;

  @Option(
      names = "--backoff-factor",
      paramLabel = "X",
      description =
          "An eventful run divides the interval by X, "
              + "an uneventful one multiplies it (1 to 100). Default: 1.")
  Double backoffFactor;

  @Option(
      names = "--cron",
      paramLabel = "EXPR",
      description =
          "Run recurring tasks at the fire times of a Unix cron expression (minute hour "
              + "day-of-month month day-of-week, e.g. '30 2 * * *'), instead of on an adaptive "
              + "interval; not with the interval options or --backoff-factor.")
  String cron;

  @Option(
      names = "--time-zone",
      paramLabel = "ZONE",
      description = "IANA time zone of --cron, e.g. Europe/Paris. Default: UTC.")
  String timeZone;

  @Option(
      names = "--max-queue-length",
      paramLabel = "N",
      description = "Most scheduled-but-unfinished runs of this type at once. Default: 1000.")
  Long maxQueueLength;

  @Option(
      names = "--num-retries",
      paramLabel = "N",
      description = "Retries of a failed task. Default: 0.")
  Integer numRetries;

  @Option(
      names = "--retry-delay",
      paramLabel = "DURATION",
      description = "Wait before a retry. Default: 1h.")
  String retryDelay;

  @Option(
      names = "--lease",
      paramLabel = "DURATION",
      description = "How long a claim holds before it may be rescued. Default: 60s.")
  String lease;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description = "Longest a run may take. Default: none.")
  String timeout;

  @Option(
      names = "--max-workers",
      paramLabel = "N",
      description = "Most workers of this type in one runner. Default: 4.")
  Integer maxWorkers;

  @Option(
      names = "--group",
      paramLabel = "GROUP",
      description = "Worker group that caps this type with others (declare it in a config file).")
  String group;

  @Option(
      names = "--concurrency-key",
      paramLabel = "KWARG",
      description =
          "Keyword argument whose value groups "
              + "the tasks for --max-per-key, e.g. owner; every task must then have it.")
  String concurrencyKey;

  @Option(
      names = "--max-per-key",
      paramLabel = "N",
      description =
          "Most tasks with the same --concurrency-key value "
              + "running at once, across all runners; keys take turns. Needs --concurrency-key.")
  Integer maxPerKey;

  @Option(
      names = "--children-rule",
      paramLabel = "RULE",
      description =
          "How a task that spawned children ends once they are all final: all_succeeded (done if "
              + "every child is done), any_succeeded, or ignore. Default: all_succeeded.")
  String childrenRule;

  @Option(
      names = "--run-history",
      paramLabel = "KEEP",
      description =
          "Which runs stay in the run history: all (every attempt, the default) or failures (only "
              + "the runs that did not succeed: lighter on the database where successes are many).")
  String runHistory;

  @Option(
      names = "--command",
      paramLabel = "ARG",
      description =
          "One argv entry of the command to run, repeated in order "
              + "(--command git --command -C --command {kwargs.path}); without it, a Java "
              + "handler runs the tasks (the CLI has one, for checksum; task add refuses tasks "
              + "of a type that nothing can execute).")
  List<String> command;

  @Option(
      names = "--working-dir",
      paramLabel = "DIR",
      description = "Working directory of the command.")
  String workingDir;

  @Option(
      names = "--env",
      paramLabel = "KEY=VALUE",
      description = "Extra environment of the command (repeatable).")
  Map<String, String> env;

  @Option(names = "--json", description = "Print the stored task type as JSON.")
  boolean json;

  @Override
  public Integer call() {
    TaskType type = build();
    if (group != null && !root().storeExists()) {
      throw unknownGroup(List.of());
    }
    try (Drover drover = root().open(true)) {
      if (group != null) {
        List<String> groups = drover.store().workerGroupList().stream().map(g -> g.name()).toList();
        if (!groups.contains(group)) {
          throw unknownGroup(groups);
        }
      }
      boolean created = drover.taskTypeCreate(type);
      TaskType stored = drover.taskType(type.name()).orElse(type);
      if (json) {
        JsonViews.print(out(), JsonViews.taskType(stored));
      } else if (created) {
        out().println("created task type " + type.name());
      } else {
        out()
            .println(
                "task type "
                    + type.name()
                    + " exists; kept as first defined "
                    + "(change it with 'drover config apply FILE')");
      }
    }
    return 0;
  }

  private ValidationException unknownGroup(List<String> known) {
    return new ValidationException(
        "--group",
        "unknown worker group '"
            + group
            + "' ("
            + (known.isEmpty()
                ? "none is declared; declare it under worker_groups in a config file"
                : "known: " + String.join(", ", known))
            + ")");
  }

  private TaskType build() {
    TaskType.Builder b =
        TaskType.builder(name)
            .description(description)
            .defaultInterval(Inputs.duration("--default-interval", defaultInterval))
            .minInterval(Inputs.duration("--min-interval", minInterval))
            .maxInterval(Inputs.duration("--max-interval", maxInterval))
            .retryDelay(Inputs.duration("--retry-delay", retryDelay))
            .lease(Inputs.duration("--lease", lease))
            .timeout(Inputs.duration("--timeout", timeout))
            .workerGroup(group)
            .command(command)
            .workingDir(workingDir)
            .env(env)
            .concurrencyKey(concurrencyKey)
            .maxPerKey(maxPerKey)
            .childrenRule(
                childrenRule == null ? null : ChildrenRule.parse("--children-rule", childrenRule))
            .runHistory(runHistory == null ? null : RunHistory.parse("--run-history", runHistory))
            .cron(cron, timeZone);
    if (cron != null && backoffFactor != null) {
      throw new ValidationException(
          "--backoff-factor", "cannot be combined with --cron: a cron type does not adapt");
    }
    if (backoffFactor != null) {
      b.backoffFactor(backoffFactor);
    }
    if (maxQueueLength != null) {
      b.maxQueueLength(maxQueueLength);
    }
    if (numRetries != null) {
      b.numRetries(numRetries);
    }
    if (maxWorkers != null) {
      b.maxWorkers(maxWorkers);
    }
    try {
      return CommandTemplate.checked(b.build());
    } catch (ValidationException e) {
      // The model names its fields (min_interval); here they are options (--min-interval).
      throw new ValidationException("--" + e.field().replace('_', '-'), ErrorHandler.problem(e));
    }
  }
}
