package dev.drover.app;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.model.ArchivableRun;
import dev.drover.model.DurationText;
import dev.drover.model.Named;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * The JSON form of Drover's records for {@code --json} and archive exports: snake_case keys,
 * instants as ISO-8601 UTC text, durations as {@link DurationText} ({@code "12h"}).
 */
final class JsonViews {
  private JsonViews() {}

  static ObjectNode taskType(TaskType t) {
    ObjectNode o = Json.object();
    o.put("name", t.name());
    o.put("description", t.description());
    o.put("cron", t.cron() == null ? null : t.cron().expression());
    o.put("time_zone", t.cron() == null ? null : t.cron().zone().getId());
    o.put("default_interval", duration(t.defaultInterval()));
    o.put("min_interval", duration(t.minInterval()));
    o.put("max_interval", duration(t.maxInterval()));
    o.put("backoff_factor", t.backoffFactor());
    o.put("max_queue_length", t.maxQueueLength());
    o.put("num_retries", t.numRetries());
    o.put("retry_delay", duration(t.effectiveRetryDelay()));
    o.put("lease", duration(t.lease()));
    o.put("timeout", duration(t.timeout()));
    o.put("max_workers", t.maxWorkers());
    o.put("group", t.workerGroup());
    o.put("concurrency_key", t.concurrencyKey());
    o.put("max_per_key", t.maxPerKey());
    o.set("command", t.command() == null ? null : Json.MAPPER.valueToTree(t.command()));
    o.put("working_dir", t.workingDir());
    o.set("env", Json.MAPPER.valueToTree(t.env()));
    o.put("children_rule", t.childrenRule().dbName());
    o.put("run_history", t.runHistory().dbName());
    return o;
  }

  static ObjectNode task(Task t) {
    ObjectNode o = Json.object();
    o.put("id", t.id());
    o.put("type", t.type());
    o.set("args", t.arguments().args());
    o.set("kwargs", t.arguments().kwargs());
    o.put("policy", name(t.policy()));
    o.put("priority", name(t.priority()));
    o.put("status", name(t.status()));
    o.put("next_run", instant(t.nextRun()));
    o.put("current_interval", duration(t.currentInterval()));
    o.put("retries_left", t.retriesLeft());
    return o;
  }

  /**
   * A task with where it stands in its tree, as {@code task show --json} prints it: the stored
   * status names stay as they are, and {@code failed_for_good} tells a task that failed for good
   * from one an operator disabled or cancelled (both {@code disabled}).
   */
  static ObjectNode taskInFamily(Task t, TaskFamily f) {
    ObjectNode o = task(t);
    o.set("family", family(f));
    o.put("failed_for_good", t.status() == TaskStatus.DISABLED && !f.disabledByOperator());
    return o;
  }

  /** Where a task stands in its tree, and who disabled it. */
  static ObjectNode family(TaskFamily f) {
    ObjectNode o = Json.object();
    if (f.parent() == null) {
      o.putNull("parent");
    } else {
      o.put("parent", f.parent());
    }
    o.put("root", f.root());
    o.put("children_total", f.childrenTotal());
    o.put("children_pending", f.childrenPending());
    o.put("children_failed", f.childrenFailed());
    o.put("disabled_by_operator", f.disabledByOperator());
    return o;
  }

  static ObjectNode taskRun(TaskRun r) {
    ObjectNode o = Json.object();
    o.put("id", r.id());
    o.put("task_id", r.taskId());
    o.put("backend_id", r.backendId());
    o.put("status", name(r.status()));
    o.put("scheduled", instant(r.scheduled()));
    o.put("started", instant(r.started()));
    o.put("ended", instant(r.ended()));
    o.set("metadata", r.metadata());
    return o;
  }

  /** One line of an archive export: the run with enough of its task to stand alone. */
  static ObjectNode archivedRun(ArchivableRun r) {
    ObjectNode o = Json.object();
    o.put("task_id", r.taskId());
    o.put("type", r.type());
    o.set("args", r.arguments().args());
    o.set("kwargs", r.arguments().kwargs());
    o.put("task_policy", name(r.taskPolicy()));
    o.put("task_status", name(r.taskStatus()));
    o.put("task_run_id", r.taskRunId());
    o.put("backend_id", r.backendId());
    o.put("status", name(r.runStatus()));
    o.put("scheduled", instant(r.scheduled()));
    o.put("started", instant(r.started()));
    o.put("ended", instant(r.ended()));
    o.set("metadata", r.metadata());
    return o;
  }

  static <T> ArrayNode array(List<T> items, Function<T, ? extends JsonNode> view) {
    ArrayNode a = Json.array();
    items.forEach(item -> a.add(view.apply(item)));
    return a;
  }

  /** Prints one indented JSON document. */
  static void print(PrintWriter out, JsonNode node) {
    try {
      out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new DroverException("cannot write JSON", e);
    }
  }

  /**
   * A JSON array printed one element at a time, as {@link #print} prints a whole one, for output
   * too long to hold: {@code drover origin record --json} of a file of millions.
   */
  static final class ArrayPrinter implements AutoCloseable {
    private final PrintWriter out;
    private final JsonGenerator json;

    ArrayPrinter(PrintWriter out) {
      this.out = out;
      try {
        json =
            Json.MAPPER
                .getFactory()
                .createGenerator(out)
                .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                .useDefaultPrettyPrinter();
        json.writeStartArray();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void add(JsonNode element) {
      try {
        json.writeTree(element);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Ends the array and its line. */
    @Override
    public void close() {
      try {
        json.writeEndArray();
        json.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      out.println();
    }
  }

  /** Compact text of one JSON value, for a JSON Lines file or a table cell. */
  static String compact(JsonNode node) {
    try {
      return Json.MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new DroverException("cannot write JSON", e);
    }
  }

  private static String instant(Instant t) {
    return t == null ? null : t.toString();
  }

  private static String duration(Duration d) {
    return DurationText.format(d);
  }

  private static String name(Named n) {
    return n == null ? null : n.dbName();
  }
}
