package dev.drover.app;

import dev.drover.Drover;
import dev.drover.TextFiles;
import dev.drover.ValidationException;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskType;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code drover task add}: one task from options, or a batch from a JSON Lines file. A batch is all
 * or nothing, and a task equal to a stored one is not created twice.
 */
@Command(
    name = "add",
    sortOptions = false,
    description = {
      "Add a task, or a batch of tasks from a JSON Lines file.",
      "",
      "A batch file has one JSON object per line with the keys type, args, kwargs, policy, "
          + "priority, "
          + "next_run and retries. A batch is all or nothing.",
      "",
      "Duplicates: a task equal to a waiting one (same type, arguments, policy and priority, "
          + "and for a oneshot task also the same next_run) is not added twice; the waiting "
          + "task is printed instead."
    })
final class TaskAddCommand extends BaseCommand {
  @Option(names = "--type", paramLabel = "TYPE", description = "The task type.")
  String type;

  @Option(
      names = "--args",
      paramLabel = "JSON",
      description = "Positional arguments, a JSON array. Default: [].")
  String args;

  @Option(
      names = "--kwargs",
      paramLabel = "JSON",
      description = "Keyword arguments, a JSON object. Default: {}.")
  String kwargs;

  @Option(
      names = "--policy",
      paramLabel = "POLICY",
      description = "recurring (the default) or oneshot.")
  String policy;

  @Option(
      names = "--priority",
      paramLabel = "PRIORITY",
      description = "high, normal or low. Default: none.")
  String priority;

  @Option(
      names = "--next-run",
      paramLabel = "TIME",
      description = "When it is first due (ISO-8601, e.g. 2026-01-02T03:04:05Z). Default: now.")
  String nextRun;

  @Option(
      names = "--retries",
      paramLabel = "N",
      description = "Retries it starts with. Default: the type's num_retries.")
  Integer retries;

  @Option(
      names = "--file",
      paramLabel = "FILE",
      description = "A JSON Lines file of tasks to add at once, instead of --type.")
  Path file;

  @Option(
      names = "--json",
      description = "Print the added (or already present) tasks as a JSON array.")
  boolean json;

  @Option(
      names = "--allow-unexecutable",
      description =
          "Add tasks even if their type has no command and no built-in handler (for a runner "
              + "of your own, built with the Java API). Without it such tasks are refused.")
  boolean allowUnexecutable;

  @Override
  public Integer call() {
    List<TaskFile.Line> tasks =
        file != null ? fromFile() : List.of(new TaskFile.Line(0, fromOptions()));
    String source = file == null ? null : file.toString();
    try (Drover drover = root().open(false)) {
      long before = taskCount(drover);
      List<Task> stored =
          List.copyOf(
              create(drover, tasks, source, allowUnexecutable).stream()
                  .collect(
                      Collectors.toMap(
                          Task::id, Function.identity(), (a, b) -> a, LinkedHashMap::new))
                  .values());
      if (json) {
        JsonViews.print(out(), JsonViews.array(stored, JsonViews::task));
      } else {
        long added = taskCount(drover) - before;
        Tables.tasks(stored).print(out());
        out().println(added + " added, " + (stored.size() - added) + " already present");
      }
    }
    return 0;
  }

  static long taskCount(Drover drover) {
    return drover.statusCounts().stream().mapToLong(c -> c.count()).sum();
  }

  private List<TaskFile.Line> fromFile() {
    if (type != null
        || args != null
        || kwargs != null
        || policy != null
        || priority != null
        || nextRun != null
        || retries != null) {
      throw new ValidationException(
          "--file",
          "cannot be combined with --type, --args, --kwargs, --policy, "
              + "--priority, --next-run or --retries (put them in the file)");
    }
    TextFiles.checkReadable("--file", file);
    return TaskFile.read(file, file.toString());
  }

  private NewTask fromOptions() {
    ValidationException.check(
        type != null, "--type", "give --type TYPE (or --file FILE.jsonl for a batch)");
    TaskArguments arguments;
    try {
      arguments = TaskArguments.parse(args, kwargs);
    } catch (ValidationException e) {
      throw new ValidationException("--" + e.field(), ErrorHandler.problem(e));
    }
    ValidationException.check(
        retries == null || retries >= 0, "--retries", "must not be negative, got " + retries);
    return new NewTask(
        type,
        arguments,
        Inputs.instant("--next-run", nextRun),
        policy == null ? null : TaskPolicy.parse("--policy", policy),
        priority == null ? null : TaskPriority.parse("--priority", priority),
        retries);
  }

  /**
   * Checks every task's type before creating any, so an error names its line ({@code source} is the
   * file, or null for options), then creates them all in one transaction.
   */
  static List<Task> create(
      Drover drover, List<TaskFile.Line> tasks, String source, boolean allowUnexecutable) {
    Map<String, TaskType> types =
        drover.taskTypes().stream().collect(Collectors.toMap(TaskType::name, Function.identity()));
    for (TaskFile.Line line : tasks) {
      NewTask t = line.task();
      TaskType type = types.get(t.type());
      if (type == null) {
        throw error(
            source,
            line,
            "type",
            "unknown task type '"
                + t.type()
                + "' (known: "
                + (types.isEmpty()
                    ? "none"
                    : String.join(", ", types.keySet().stream().sorted().toList()))
                + ")");
      }
      if (!allowUnexecutable && !RunnerSetup.executable(type)) {
        throw error(
            source,
            line,
            "type",
            "task type '"
                + type.name()
                + "' has no command and no built-in handler, so drover run would never execute "
                + "it (give the type a command, or --allow-unexecutable to add it anyway)");
      }
      if (t.policy() == TaskPolicy.RECURRING && !type.recurs()) {
        throw error(
            source,
            line,
            "policy",
            "task type '"
                + type.name()
                + "' has neither a default_interval nor a cron, so its tasks must be oneshot");
      }
      try {
        type.concurrencyKeyOf(t.arguments());
      } catch (ValidationException e) {
        throw source == null
            ? new ValidationException(
                "--kwargs", "'" + type.concurrencyKey() + "' " + ErrorHandler.problem(e))
            : TaskFile.error(source, line.number(), e.field(), ErrorHandler.problem(e));
      }
      checkFills(type, line, source);
    }
    return drover.taskCreate(tasks.stream().map(TaskFile.Line::task).toList());
  }

  private static void checkFills(TaskType type, TaskFile.Line line, String source) {
    if (type.command() == null) {
      return;
    }
    try {
      CommandTemplate.parse(type.command()).checkFills(type.name(), line.task().arguments());
    } catch (ValidationException e) {
      throw source == null
          ? new ValidationException("--" + e.field(), ErrorHandler.problem(e))
          : TaskFile.error(source, line.number(), e.field(), ErrorHandler.problem(e));
    }
  }

  private static ValidationException error(
      String source, TaskFile.Line line, String key, String problem) {
    return source == null
        ? new ValidationException("--" + key, problem)
        : TaskFile.error(source, line.number(), key, problem);
  }
}
