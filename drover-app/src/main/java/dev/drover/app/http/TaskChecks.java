package dev.drover.app.http;

import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.model.NewTask;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskType;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code drover task add} checks against the stored task types before it creates anything, for
 * the API: the type exists and something here executes it (a command, or a handler of {@code
 * handled}), a recurring task's type recurs, the concurrency key is there and the command's
 * placeholders are filled. {@code at} names each task in errors ({@code ""} for a single task,
 * {@code tasks[i]} in a batch).
 */
final class TaskChecks {
  private TaskChecks() {}

  static void check(Map<String, TaskType> types, Set<String> handled, NewTask t, String at) {
    String prefix = at.isEmpty() ? "" : at + ".";
    TaskType type = types.get(t.type());
    if (type == null) {
      throw new ValidationException(
          prefix + "type",
          "unknown task type '"
              + t.type()
              + "' (known: "
              + (types.isEmpty()
                  ? "none"
                  : String.join(", ", types.keySet().stream().sorted().toList()))
              + ")");
    }
    ValidationException.check(
        type.command() != null || handled.contains(type.name()),
        prefix + "type",
        "task type '"
            + type.name()
            + "' has no command and no handler here (built-in or from --handlers-jar), so this"
            + " server's runner would never execute it");
    ValidationException.check(
        t.policy() != TaskPolicy.RECURRING || type.recurs(),
        prefix + "policy",
        "task type '"
            + type.name()
            + "' has neither a default_interval nor a cron, so its tasks must be oneshot");
    try {
      type.concurrencyKeyOf(t.arguments());
      if (type.command() != null) {
        CommandTemplate.parse(type.command()).checkFills(type.name(), t.arguments());
      }
    } catch (ValidationException e) {
      throw new ValidationException(prefix + e.field(), ApiBridge.problem(e));
    }
  }

  static void checkAll(
      Map<String, TaskType> types, Set<String> handled, List<NewTask> tasks, boolean batch) {
    for (int i = 0; i < tasks.size(); i++) {
      check(types, handled, tasks.get(i), batch ? "tasks[" + i + "]" : "");
    }
  }
}
