package dev.drover.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.SchedulerMetrics;
import dev.drover.model.Event;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskType;
import dev.drover.store.LeaderLease;
import dev.drover.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * What the HTTP API ({@code dev.drover.app.http}) shares with the CLI: the JSON shapes of {@code
 * --json}, so both answer alike, and the CLI's parsing of times and durations. The CLI's classes
 * stay package-private; this is the one door the http package goes through.
 */
public final class ApiBridge {
  private ApiBridge() {}

  public static ObjectNode taskType(TaskType t) {
    return JsonViews.taskType(t);
  }

  public static ObjectNode task(Task t) {
    return JsonViews.task(t);
  }

  public static ObjectNode taskRun(TaskRun r) {
    return JsonViews.taskRun(r);
  }

  /** As {@code drover status --json}. */
  public static JsonNode status(Drover drover) {
    return StatusCommand.json(drover);
  }

  /** As {@code drover runners --json}. */
  public static JsonNode runners(Drover drover) {
    String leader =
        drover
            .store()
            .runners()
            .leader(RunnersCommand.LEADER_SERVICE)
            .map(LeaderLease::holder)
            .orElse(null);
    return RunnersCommand.json(drover.store().runners().list(), leader);
  }

  /** One event as {@code drover events --json}. */
  public static ObjectNode event(Event e) {
    return EventsCommand.json(e);
  }

  public static ObjectNode lister(Lister l) {
    return FrontierViews.lister(l);
  }

  public static ObjectNode origin(ListedOrigin o, Map<UUID, Lister> listers) {
    return FrontierViews.origin(o, listers);
  }

  public static ObjectNode metrics(SchedulerMetrics m, Map<UUID, Lister> listers) {
    return FrontierViews.metrics(m, listers);
  }

  /**
   * The origins of a {@code POST /origins} body, each with the keys of a line of {@code origin
   * record}'s file, {@code lister} and {@code instance} their defaults ({@link OriginBody}).
   */
  public static List<ListedOrigin> originsToRecord(
      Drover drover, JsonNode origins, String lister, String instance) {
    return OriginBody.read(drover, origins, lister, instance);
  }

  public static Map<UUID, Lister> listersById(Drover drover) {
    return ListerCommand.byId(drover);
  }

  /** A task with its place in its tree, as {@code task show --json} prints it. */
  public static ObjectNode task(Task t, TaskFamily family) {
    return JsonViews.taskInFamily(t, family);
  }

  /** What a deletion removed, in the line {@code task delete} prints. */
  public static String deletionSummary(Store.TaskDeletion d, int dirs) {
    return TaskDeleteCommand.summary(d, dirs);
  }

  /**
   * Removes the directories of deleted runs under {@code runsDir}, as {@code task delete} does;
   * returns how many were removed.
   */
  public static int removeRunDirectories(
      Path runsDir, List<Store.DeletedRun> runs, Consumer<String> warn) {
    return RunDirectories.remove(runsDir, runs, warn);
  }

  /**
   * A task's status as the CLI's tables print it: the word of {@link
   * dev.drover.model.TaskStatus#word()}, {@code due} for a waiting task whose time has come, and
   * {@code failed} for a disabled task no operator disabled (it failed for good).
   */
  public static String statusWord(Task t, TaskFamily family, Instant now) {
    return TaskTreeCommand.word(t, family, now);
  }

  /** A type's schedule as {@code task-type list} prints it: {@code 1h (10m..1d)}, {@code cron}. */
  public static String schedule(TaskType type) {
    return Tables.intervals(type);
  }

  /** The problem of a validation error, without its field. */
  public static String problem(ValidationException e) {
    return ErrorHandler.problem(e);
  }

  public static Instant instant(String field, String text) {
    return Inputs.instant(field, text);
  }

  public static Duration duration(String field, String text) {
    return Inputs.duration(field, text);
  }
}
