package dev.drover.engine.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.Outcome;
import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskRunStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The children a command spawns: stdout lines such as {@code {"spawn": {"type": "snapshot",
 * "args": ["https://example.org"], "kwargs": {"depth": 1}}}}, anywhere before its outcome line.
 * {@code policy} is {@code oneshot} unless it says {@code recurring}; {@code priority} is optional.
 * A line that starts with {@code {"spawn"} but is not such an object fails the run with the line's
 * number and field, spawning nothing: half a family is worse than none. So does a stdout cut short
 * by the output cap, since spawn lines may be among the bytes dropped.
 */
final class CommandSpawns {
  private static final String PREFIX = "{\"spawn\"";
  private static final Set<String> FIELDS = Set.of("type", "args", "kwargs", "policy", "priority");
  private static final ObjectReader STRICT =
      Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private CommandSpawns() {}

  /** {@code outcome} with the spawn lines of {@code stdout}, if it succeeded. */
  static Outcome add(Outcome outcome, Path stdout, boolean stdoutCut) {
    if (outcome.status() != TaskRunStatus.EVENTFUL
        && outcome.status() != TaskRunStatus.UNEVENTFUL) {
      return outcome;
    }
    List<NewTask> spawns = new ArrayList<>();
    int number = 0;
    try (BufferedReader in = Files.newBufferedReader(stdout, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.startsWith(PREFIX)) {
          spawns.add(parse(number, line));
        }
      }
    } catch (ValidationException e) {
      return failed(outcome, e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      return spawnsIfAny(outcome, List.of()); // no stdout file: the command printed nothing
    }
    if (stdoutCut && !spawns.isEmpty()) {
      return failed(outcome, "stdout was longer than output_cap: spawn lines may have been lost");
    }
    return spawnsIfAny(outcome, spawns);
  }

  private static Outcome spawnsIfAny(Outcome outcome, List<NewTask> spawns) {
    return spawns.isEmpty() ? outcome : outcome.spawning(spawns);
  }

  private static Outcome failed(Outcome outcome, String message) {
    ObjectNode result = outcome.result().deepCopy();
    result.put("error", message);
    return new Outcome(TaskRunStatus.FAILED, result);
  }

  /** One spawn line; throws naming the line and the field. */
  static NewTask parse(int number, String line) {
    String at = "spawn line " + number;
    JsonNode node;
    try {
      node = STRICT.readTree(line);
    } catch (JsonProcessingException e) {
      throw new ValidationException(at, "is not a JSON object");
    }
    JsonNode spawn = node.get("spawn");
    if (node.size() != 1 || !(spawn instanceof ObjectNode s)) {
      throw new ValidationException(
          at, "must be {\"spawn\": {\"type\": ..., ...}} and nothing else");
    }
    for (Iterator<String> names = s.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw new ValidationException(at + ": " + name, "unknown field (expected " + FIELDS + ")");
      }
    }
    if (!s.path("type").isTextual() || s.get("type").asText().isBlank()) {
      throw new ValidationException(at + ": type", "must be a task type's name");
    }
    JsonNode args = s.get("args");
    JsonNode kwargs = s.get("kwargs");
    if (args != null && !args.isArray()) {
      throw new ValidationException(at + ": args", "must be a JSON array");
    }
    if (kwargs != null && !kwargs.isObject()) {
      throw new ValidationException(at + ": kwargs", "must be a JSON object");
    }
    try {
      TaskPolicy policy =
          s.has("policy")
              ? TaskPolicy.parse(at + ": policy", s.get("policy").asText())
              : TaskPolicy.ONESHOT;
      TaskPriority priority =
          s.has("priority")
              ? TaskPriority.parse(at + ": priority", s.get("priority").asText())
              : null;
      TaskArguments arguments =
          new TaskArguments(
              args == null ? Json.MAPPER.createArrayNode() : (ArrayNode) args,
              kwargs == null ? Json.object() : (ObjectNode) kwargs);
      return new NewTask(s.get("type").asText(), arguments, null, policy, priority, null);
    } catch (ValidationException e) {
      throw e.getMessage().startsWith(at) ? e : new ValidationException(at, e.getMessage());
    }
  }
}
