package dev.drover.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.TextLines;
import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import java.io.Closeable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A batch of tasks in JSON Lines: one object per line with {@code type} (required), {@code args},
 * {@code kwargs}, {@code policy}, {@code priority}, {@code next_run} and {@code retries}. Blank
 * lines are skipped. The file is read a line at a time, so a file of millions of tasks is never
 * held whole, and every error names the file, the line and the key ({@code tasks.jsonl:3:
 * priority}).
 */
final class TaskFile implements Closeable {
  static final List<String> KEYS =
      List.of("type", "args", "kwargs", "policy", "priority", "next_run", "retries");

  /** One task of the file and the line it came from. */
  /**
   * A task and where it came from; {@code policyGiven} is false when the line named no policy, so
   * that its type decides ({@link TaskChecks}).
   */
  record Line(int number, NewTask task, boolean policyGiven) {}

  private final String name;
  private final TextLines lines;

  private TaskFile(String name, TextLines lines) {
    this.name = name;
    this.lines = lines;
  }

  /** Opens {@code file}; {@code shownAs} is how errors name it. */
  static TaskFile open(Path file, String shownAs) {
    return new TaskFile(shownAs, TextLines.open("--file", file));
  }

  /** Reads the whole of {@code file}; for small files and tests. */
  static List<Line> read(Path file, String shownAs) {
    List<Line> tasks = new ArrayList<>();
    try (TaskFile reader = open(file, shownAs)) {
      for (Line line = reader.next(); line != null; line = reader.next()) {
        tasks.add(line);
      }
    }
    return tasks;
  }

  /** The next task, or null at the end of the file; an invalid line is refused. */
  Line next() {
    for (String text = lines.next(); text != null; text = lines.next()) {
      if (!text.isBlank()) {
        return parse(lines.number(), text);
      }
    }
    return null;
  }

  @Override
  public void close() {
    lines.close();
  }

  /** The error for {@code key} on line {@code line}, e.g. {@code tasks.jsonl:3: priority: ...}. */
  ValidationException error(int line, String key, String problem) {
    return error(name, line, key, problem);
  }

  static ValidationException error(String file, int line, String key, String problem) {
    return new ValidationException(file + ":" + line + (key == null ? "" : ": " + key), problem);
  }

  private Line parse(int line, String text) {
    JsonNode node;
    try {
      node = Json.readInput(text);
    } catch (JsonProcessingException e) {
      throw error(line, null, "malformed JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw error(
          line,
          null,
          "expected a JSON object such as {\"type\": \"mirror-git\", \"kwargs\": {...}}");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!KEYS.contains(key)) {
        throw error(line, key, "unknown key (expected " + String.join(", ", KEYS) + ")");
      }
    }
    JsonNode type = node.get("type");
    if (type == null || !type.isTextual() || type.asText().isBlank()) {
      throw error(line, "type", "a task type name is required");
    }
    JsonNode args = node.get("args");
    if (args != null && !args.isNull() && !args.isArray()) {
      throw error(line, "args", "expected a JSON array");
    }
    JsonNode kwargs = node.get("kwargs");
    if (kwargs != null && !kwargs.isNull() && !kwargs.isObject()) {
      throw error(line, "kwargs", "expected a JSON object");
    }
    String policy = text(line, node, "policy");
    try {
      NewTask task =
          new NewTask(
              type.asText(),
              new TaskArguments(
                  args instanceof ArrayNode a ? a : null,
                  kwargs instanceof ObjectNode o ? o : null),
              nextRun(line, node.get("next_run")),
              policy == null ? null : TaskPolicy.parse("policy", policy),
              text(line, node, "priority") == null
                  ? null
                  : TaskPriority.parse("priority", text(line, node, "priority")),
              retries(line, node.get("retries")));
      return new Line(line, task, policy != null);
    } catch (ValidationException e) {
      throw e.field().startsWith(name + ":") ? e : error(line, e.field(), ErrorHandler.problem(e));
    }
  }

  private String text(int line, JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw error(line, key, "expected a string");
    }
    return value.asText();
  }

  private Instant nextRun(int line, JsonNode value) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw error(line, "next_run", "expected an ISO-8601 timestamp string");
    }
    return Inputs.instant("next_run", value.asText());
  }

  private Integer retries(int line, JsonNode value) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.canConvertToExactIntegral() || !value.canConvertToInt() || value.asInt() < 0) {
      throw error(line, "retries", "expected a whole number, 0 or more, got " + value);
    }
    return value.asInt();
  }
}
