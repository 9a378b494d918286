package dev.drover.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.model.DurationText;
import dev.drover.model.Named;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;

/**
 * The human tables of tasks, task types and runs: UTC times to the second, durations as {@code
 * 12h}.
 */
final class Tables {
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final int MAX_ARGS_WIDTH = 60;
  private static final DateTimeFormatter WALL_CLOCK =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm");
  private static final int MAX_ERROR_WIDTH = 100;

  private Tables() {}

  static Table tasks(List<Task> tasks) {
    Table t =
        new Table(
            "ID",
            "TYPE",
            "POLICY",
            "PRIORITY",
            "STATUS",
            "NEXT RUN",
            "INTERVAL",
            "RETRIES",
            "ARGUMENTS");
    for (Task task : tasks) {
      t.row(
          task.id(),
          task.type(),
          name(task.policy()),
          name(task.priority()),
          status(task, Instant.now()),
          time(task.nextRun()),
          DurationText.format(task.currentInterval()),
          task.retriesLeft(),
          arguments(task));
    }
    return t;
  }

  static Table taskTypes(List<TaskType> types) {
    Table t =
        new Table(
            "NAME",
            "SCHEDULE",
            "BACKOFF",
            "RETRIES",
            "QUEUE",
            "WORKERS",
            "PER KEY",
            "GROUP",
            "RUNS",
            "DESCRIPTION");
    for (TaskType type : types) {
      t.row(
          type.name(),
          intervals(type),
          type.backoffFactor(),
          type.numRetries(),
          type.maxQueueLength(),
          type.maxWorkers(),
          type.maxPerKey() == null ? null : type.maxPerKey() + " per " + type.concurrencyKey(),
          type.workerGroup(),
          type.command() == null ? "java handler" : "command",
          type.description().isEmpty() ? null : type.description());
    }
    return t;
  }

  /**
   * Runs with why each failed: the error its result holds, and the directory its output was kept in
   * ({@code logDir} gives it, or null when there is none on disk).
   */
  static Table runs(List<TaskRun> runs, Function<TaskRun, Path> logDir) {
    Table t =
        new Table(
            "ID",
            "TASK",
            "STATUS",
            "SCHEDULED",
            "STARTED",
            "ENDED",
            "BACKEND ID",
            "ERROR",
            "LOG DIR");
    for (TaskRun r : runs) {
      Path dir = logDir.apply(r);
      t.row(
          r.id(),
          r.taskId(),
          name(r.status()),
          time(r.scheduled()),
          time(r.started()),
          time(r.ended()),
          r.backendId(),
          error(r),
          dir == null ? null : dir.toString());
    }
    return t;
  }

  /** The error of a run's result ({@code metadata.result.error}), on one line, or null. */
  static String error(TaskRun r) {
    JsonNode error = r.metadata() == null ? null : r.metadata().path("result").get("error");
    if (error == null || error.isNull()) {
      return null;
    }
    String text = (error.isTextual() ? error.asText() : error.toString()).replaceAll("\\s+", " ");
    return text.length() <= MAX_ERROR_WIDTH ? text : text.substring(0, MAX_ERROR_WIDTH - 3) + "...";
  }

  /**
   * Where a runner kept a run's output ({@code RUNS_DIR/TYPE/BACKEND_ID}, see {@code Execution}),
   * if that directory exists.
   */
  static Path logDir(Path runsDir, String taskType, TaskRun r) {
    if (taskType == null || r.backendId() == null) {
      return null;
    }
    Path dir = runsDir.resolve(taskType).resolve(r.backendId());
    return Files.isDirectory(dir) ? dir : null;
  }

  /** A type's schedule: {@code 1h (10m..1d)}, {@code cron 30 2 * * * (Europe/Paris)}. */
  static String intervals(TaskType type) {
    if (type.cron() != null) {
      return "cron " + type.cron();
    }
    if (type.defaultInterval() == null) {
      return "oneshot only";
    }
    return DurationText.format(type.defaultInterval())
        + " ("
        + orDash(DurationText.format(type.minInterval()))
        + ".."
        + orDash(DurationText.format(type.maxInterval()))
        + ")";
  }

  /**
   * A task's next run in UTC, and for a task of a cron type also on the wall clock of the cron's
   * zone, where its fire times are: {@code 2026-03-29T01:30:00Z (2026-03-29 03:30 Europe/Paris)}.
   */
  static String nextRun(Instant nextRun, TaskType type) {
    String utc = time(nextRun);
    if (nextRun == null || type == null || type.cron() == null) {
      return utc;
    }
    ZonedDateTime local = nextRun.atZone(type.cron().zone());
    return utc + " (" + WALL_CLOCK.format(local) + " " + type.cron().zone().getId() + ")";
  }

  /** An instant in UTC, to the second: {@code 2026-01-02T03:04:05Z}. */
  /** An instant in UTC to the millisecond, always with three digits, so that a log lines up. */
  static String timeMillis(Instant t) {
    return t == null ? null : MILLIS.format(t);
  }

  static String time(Instant t) {
    return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /**
   * A task's status in a word: {@code due} (waiting, and its next run has passed), {@code waiting},
   * {@code running}, {@code done} or {@code disabled}.
   */
  static String status(Task task, Instant now) {
    boolean due =
        task.status() == TaskStatus.NEXT_RUN_NOT_SCHEDULED && !task.nextRun().isAfter(now);
    return due ? "due" : task.status().word();
  }

  static String name(Named n) {
    return n == null ? null : n.dbName();
  }

  private static String arguments(Task task) {
    String args =
        task.arguments().args().isEmpty() ? "" : JsonViews.compact(task.arguments().args());
    String kwargs =
        task.arguments().kwargs().isEmpty() ? "" : JsonViews.compact(task.arguments().kwargs());
    String text = (args + " " + kwargs).trim();
    if (text.isEmpty()) {
      return null;
    }
    return text.length() <= MAX_ARGS_WIDTH ? text : text.substring(0, MAX_ARGS_WIDTH - 3) + "...";
  }

  private static String orDash(String s) {
    return s == null ? "-" : s;
  }
}
