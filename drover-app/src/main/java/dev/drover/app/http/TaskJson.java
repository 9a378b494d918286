package dev.drover.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import java.util.ArrayList;
import java.util.List;

/**
 * A task from a request body, with the keys of a line of {@code drover task add --file}: {@code
 * type} (required), {@code args}, {@code kwargs}, {@code policy}, {@code priority}, {@code
 * next_run}, {@code retries}. A batch is {@code {"tasks": [...]}}; its errors name the task, as in
 * {@code tasks[2].priority}.
 */
final class TaskJson {
  static final List<String> KEYS =
      List.of("type", "args", "kwargs", "policy", "priority", "next_run", "retries");

  /** Most tasks in one batch; larger ones are refused, not cut. */
  static final int MAX_BATCH = 10_000;

  private static final String EXAMPLE = "{\"type\": \"fetch\", \"args\": [\"https://...\"]}";

  private TaskJson() {}

  static NewTask one(JsonNode body) {
    return parse(body, "");
  }

  static List<NewTask> batch(JsonNode body) {
    Fields f = Fields.of(body, "", "{\"tasks\": [" + EXAMPLE + "]}").onlyKeys(List.of("tasks"));
    JsonNode tasks = f.raw("tasks");
    if (tasks == null || !tasks.isArray()) {
      throw new ValidationException(
          "tasks", "expected an array of tasks, got " + Fields.kind(tasks));
    }
    ValidationException.check(!tasks.isEmpty(), "tasks", "must hold at least one task");
    ValidationException.check(
        tasks.size() <= MAX_BATCH,
        "tasks",
        "at most " + MAX_BATCH + " tasks in one batch, got " + tasks.size());
    List<NewTask> out = new ArrayList<>();
    for (int i = 0; i < tasks.size(); i++) {
      out.add(parse(tasks.get(i), "tasks[" + i + "]"));
    }
    return out;
  }

  private static NewTask parse(JsonNode node, String at) {
    Fields f = Fields.of(node, at, EXAMPLE).onlyKeys(KEYS);
    String type = f.requiredText("type", "a task type name");
    JsonNode args = f.raw("args");
    if (args != null && !args.isArray()) {
      throw new ValidationException(
          f.name("args"), "expected a JSON array, got " + Fields.kind(args));
    }
    JsonNode kwargs = f.raw("kwargs");
    if (kwargs != null && !kwargs.isObject()) {
      throw new ValidationException(
          f.name("kwargs"), "expected a JSON object, got " + Fields.kind(kwargs));
    }
    String policy = f.text("policy");
    String priority = f.text("priority");
    try {
      return new NewTask(
          type,
          new TaskArguments((ArrayNode) args, (ObjectNode) kwargs),
          ApiBridge.instant(f.name("next_run"), f.text("next_run")),
          policy == null ? null : TaskPolicy.parse(f.name("policy"), policy),
          priority == null ? null : TaskPriority.parse(f.name("priority"), priority),
          f.integer("retries", 0));
    } catch (ValidationException e) {
      throw e.field().startsWith(at)
          ? e
          : new ValidationException(f.name(e.field()), ApiBridge.problem(e));
    }
  }
}
