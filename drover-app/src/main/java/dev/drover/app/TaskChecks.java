package dev.drover.app;

import dev.drover.ValidationException;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.model.NewTask;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks a new task against its stored type before anything is written, so the error names the
 * option or the file's line rather than coming back from the store without one: the type exists,
 * can be executed (unless allowed), takes recurring tasks if it is one, gets its concurrency key,
 * and its command's placeholders are filled. The types are read once, for a whole file.
 */
final class TaskChecks {
  private final Map<String, TaskType> types;
  private final Map<String, CommandTemplate> templates = new HashMap<>();
  private final boolean allowUnexecutable;
  private final String source;

  /** {@code source} is the file errors name, or null when the task came from options. */
  TaskChecks(List<TaskType> types, boolean allowUnexecutable, String source) {
    this.types = types.stream().collect(Collectors.toMap(TaskType::name, Function.identity()));
    this.allowUnexecutable = allowUnexecutable;
    this.source = source;
  }

  /** Returns the line's task, or throws an error naming its line (or option) and key. */
  NewTask check(TaskFile.Line line) {
    NewTask t = line.task();
    TaskType type = types.get(t.type());
    if (type == null) {
      throw error(
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
          line,
          "type",
          "task type '"
              + type.name()
              + "' has no command and no built-in handler, so drover run would never execute "
              + "it (give the type a command, or --allow-unexecutable to add it anyway)");
    }
    if (t.policy() == TaskPolicy.RECURRING && !type.recurs()) {
      if (!line.policyGiven()) {
        // No policy named: a type that cannot recur takes oneshot tasks, so that is the default.
        t =
            new NewTask(
                t.type(),
                t.arguments(),
                t.nextRun(),
                TaskPolicy.ONESHOT,
                t.priority(),
                t.retriesLeft());
      } else {
        throw error(
            line,
            "policy",
            "task type '"
                + type.name()
                + "' has neither a default_interval nor a cron, so its tasks must be oneshot");
      }
    }
    try {
      type.concurrencyKeyOf(t.arguments());
    } catch (ValidationException e) {
      throw source == null
          ? new ValidationException(
              "--kwargs", "'" + type.concurrencyKey() + "' " + ErrorHandler.problem(e))
          : TaskFile.error(source, line.number(), e.field(), ErrorHandler.problem(e));
    }
    if (type.command() != null) {
      try {
        templates
            .computeIfAbsent(type.name(), n -> CommandTemplate.parse(type.command()))
            .checkFills(type.name(), t.arguments());
      } catch (ValidationException e) {
        throw source == null
            ? new ValidationException("--" + e.field(), ErrorHandler.problem(e))
            : TaskFile.error(source, line.number(), e.field(), ErrorHandler.problem(e));
      }
    }
    return t;
  }

  private ValidationException error(TaskFile.Line line, String key, String problem) {
    return source == null
        ? new ValidationException("--" + key, problem)
        : TaskFile.error(source, line.number(), key, problem);
  }
}
