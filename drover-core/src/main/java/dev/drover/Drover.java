package dev.drover;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.config.ConfigFile;
import dev.drover.config.ConfigReport;
import dev.drover.engine.RunnerBuilder;
import dev.drover.model.ArchivableRun;
import dev.drover.model.ArchivePage;
import dev.drover.model.Event;
import dev.drover.model.EventKind;
import dev.drover.model.NewTask;
import dev.drover.model.RunToSchedule;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import dev.drover.store.FrontierStore;
import dev.drover.store.OpenRun;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.Stores;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The entry point of Drover for an application: opens a store (a data directory with embedded
 * SQLite, or PostgreSQL) and gives access to task types, tasks, runs and archival. Every
 * time-dependent call reads the injected {@link Clock}.
 *
 * <pre>{@code
 * try (Drover drover = Drover.open(StoreLocation.dataDir(Path.of("drover-data")))) {
 *   drover.taskTypeCreate(TaskType.builder("load-git").intervals(day, hour, week).build());
 *   drover.taskCreate(
 *       List.of(NewTask.recurring("load-git", TaskArguments.of(List.of(url), null))));
 * }
 * }</pre>
 */
public final class Drover implements AutoCloseable {
  private final Store store;
  private final Clock clock;

  private Drover(Store store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /**
   * Opens (creating and migrating if needed) the store at {@code location} with the system clock.
   */
  public static Drover open(StoreLocation location) {
    return open(location, Clock.systemUTC());
  }

  /** Opens the store at {@code location}, reading time from {@code clock}. */
  public static Drover open(StoreLocation location, Clock clock) {
    return new Drover(Stores.open(location), clock);
  }

  /**
   * Opens Drover on the application's own pool (PostgreSQL or SQLite, read from the connection's
   * metadata), migrating the schema as needed. Closing the Drover leaves {@code source} open. On
   * PostgreSQL the pool's connections must send strings untyped ({@code stringtype=unspecified}).
   */
  public static Drover open(DataSource source) {
    return open(source, Clock.systemUTC());
  }

  /** As {@link #open(DataSource)}, reading time from {@code clock}. */
  public static Drover open(DataSource source, Clock clock) {
    return new Drover(Stores.open(source), clock);
  }

  /** Wraps an already open store; for tests and embedders that manage the store themselves. */
  public static Drover of(Store store, Clock clock) {
    return new Drover(store, clock);
  }

  /** The store underneath, for calls that take explicit instants. */
  public Store store() {
    return store;
  }

  /**
   * A builder of a runner over this store and clock, keeping run output under {@code runsDir};
   * register handlers and set options on it, then {@code build()} and {@code run()}.
   */
  public RunnerBuilder runner(Path runsDir) {
    return new RunnerBuilder(store, runsDir).clock(clock);
  }

  /** The crawl frontier: listers, listed origins, visit stats, metrics. */
  public FrontierStore frontier() {
    return store.frontier();
  }

  public Instant now() {
    return clock.instant();
  }

  // ---- configuration and task types

  /**
   * Applies a configuration file (task types, worker groups, limits); invalid files are refused
   * whole.
   */
  public ConfigReport applyConfig(Path file) {
    return ConfigFile.read(file).applyTo(store);
  }

  /** Creates a task type unless it exists; the first definition wins. True if it was created. */
  public boolean taskTypeCreate(TaskType type) {
    return store.taskTypeCreate(type);
  }

  public Optional<TaskType> taskType(String name) {
    return store.taskTypeGet(name);
  }

  public List<TaskType> taskTypes() {
    return store.taskTypeList();
  }

  // ---- tasks

  /** Creates tasks (de-duplicated within the batch and against stored tasks); all or nothing. */
  public List<Task> taskCreate(List<NewTask> tasks) {
    return store.taskCreate(tasks, now());
  }

  /**
   * Adds {@code tasks} under {@code parent}, all or nothing (see {@link Store#taskCreateChildren}
   * for which parents take children).
   */
  public List<Task> taskCreateChildren(long parent, List<NewTask> tasks) {
    return store.taskCreateChildren(parent, tasks, now());
  }

  /**
   * Creates tasks inside the application's open transaction on {@code connection} (auto-commit
   * off), which Drover neither commits nor closes: they become visible, and on PostgreSQL runners
   * are notified, only when the application commits; a rollback leaves nothing.
   */
  public List<Task> taskCreate(Connection connection, List<NewTask> tasks) {
    return store.taskCreate(connection, tasks, now());
  }

  /**
   * Creates the tasks {@code tasks} yields, a chunk at a time in one transaction (see {@link
   * Store#taskCreateAll}); all or nothing. Returns how many inputs there were.
   */
  public long taskCreateAll(Iterator<NewTask> tasks, Consumer<List<Task>> stored) {
    return store.taskCreateAll(tasks, now(), stored);
  }

  public Optional<Task> task(long id) {
    return store.taskGet(List.of(id)).stream().findFirst();
  }

  public List<Task> taskSearch(TaskQuery query) {
    return store.taskSearch(query);
  }

  /**
   * Disables tasks: kept and visible, never due until enabled. A task running now is stopped: its
   * run ends {@code lost} (metadata {@code disabled: true}) at once, nothing charged, and the
   * runner executing it cancels the work at its next heartbeat (within a third of the type's
   * lease). Returns how many changed.
   */
  public int taskDisable(List<Long> ids) {
    return store.taskSetStatus(ids, TaskStatus.DISABLED, null, false, now());
  }

  /** Enables disabled tasks, due now with their retries back. Returns how many changed. */
  public int taskEnable(List<Long> ids) {
    return store.taskEnable(ids, now());
  }

  // ---- operator control (see the README's "Workflows and operator control")

  /**
   * Pauses tasks that wait for a run (with {@code tree}, every task below them too): never due
   * until resumed. Running tasks finish their run. Returns how many were paused.
   */
  public int taskPause(List<Long> ids, boolean tree) {
    return logged("pause", ids, null, tree, store.taskPause(ids, tree));
  }

  /** Resumes paused tasks (with {@code tree}, below them too); returns how many. */
  public int taskResume(List<Long> ids, boolean tree) {
    return logged("resume", ids, null, tree, store.taskResume(ids, tree));
  }

  /**
   * Pauses or resumes a task type: a paused type's tasks are not claimed; work already running
   * finishes. False if there is no such type.
   */
  public boolean taskTypePause(String name, boolean paused) {
    boolean changed = store.taskTypePause(name, paused);
    if (changed) {
      logged(paused ? "pause" : "resume", List.of(), name, false, 1);
    }
    return changed;
  }

  /**
   * Cancels tasks (with {@code tree}, every task below them too) that are not final: disabled by an
   * operator, nothing charged; a running one is stopped by its runner at its next heartbeat and its
   * run recorded {@code cancelled}. A waiting parent counts a cancelled child as failed. Returns
   * how many were cancelled.
   */
  public int taskCancel(List<Long> ids, boolean tree) {
    return logged("cancel", ids, null, tree, store.taskCancel(ids, tree, now()));
  }

  /**
   * Makes tasks due now with their type's retries back (failed, disabled, cancelled, done or
   * waiting ones); running tasks and parents waiting for children are left alone. Returns how many.
   */
  public int taskRetry(List<Long> ids) {
    return logged("retry", ids, null, false, store.taskRetry(ids, now()));
  }

  /**
   * Cancels, then deletes tasks (with {@code tree}, every task below them too) with all their runs.
   * The runs' directories are the caller's to remove: {@code <runs dir>/<type>/<run id>}.
   */
  public Store.TaskDeletion taskDelete(List<Long> ids, boolean tree) {
    Store.TaskDeletion d = store.taskDelete(ids, tree, now());
    logged("delete", ids, null, tree, d.tasks());
    return d;
  }

  /**
   * Writes what an operator did to the event log (after it committed: the log says what was done,
   * and a crash in between loses the line, never the change). Returns {@code changed}.
   */
  private int logged(String verb, List<Long> ids, String type, boolean tree, int changed) {
    ObjectNode detail = Json.object();
    detail.put("verb", verb);
    if (type != null) {
      detail.put("task_type", type);
    } else {
      ids.forEach(detail.putArray("ids")::add);
      detail.put("tree", tree);
    }
    detail.put("changed", changed);
    Long task = ids.size() == 1 ? ids.get(0) : null;
    store.eventAppend(List.of(Event.of(now(), EventKind.OPERATOR_CONTROL, null, task, detail)));
    return changed;
  }

  /** Where a task stands in its tree, and whether an operator disabled it. */
  public Optional<TaskFamily> taskFamily(long id) {
    return store.taskFamily(List.of(id)).stream().findFirst();
  }

  /** Up to {@code limit} children of {@code parent} with an id above {@code afterId}, by id. */
  public List<Task> taskChildren(long parent, long afterId, int limit) {
    return store.taskChildren(parent, afterId, limit);
  }

  /** How many tasks of the tree under {@code root} (the root included) are in each status. */
  public Map<TaskStatus, Long> treeCounts(long root) {
    return store.taskCountByRoot(root);
  }

  /** Per task type, how many disabled tasks an operator disabled or cancelled. */
  public Map<String, Long> disabledByOperatorCounts() {
    return store.taskCountDisabledByOperator();
  }

  /** Ready tasks of a type without priority, oldest due first; changes nothing. */
  public List<Task> taskPeekReady(String type, int limit) {
    return store.taskPeekReady(type, now(), limit);
  }

  /**
   * Grabs ready tasks of a type with the default priority shares; see {@link Store#taskGrabReady}.
   */
  public List<Task> taskGrabReady(String type, int limit, int priorityLimit) {
    return store.taskGrabReady(type, now(), limit, priorityLimit, PriorityShares.DEFAULT);
  }

  public List<StatusCount> statusCounts() {
    return store.taskCountByTypeAndStatus();
  }

  /** Per task type with any, how many tasks are due now. */
  public Map<String, Long> dueCounts() {
    return store.taskCountDueByType(now());
  }

  // ---- runs

  /**
   * Opens a scheduled run for each task, now; backend ids are generated. All or nothing: a task
   * that does not exist is refused ({@link ValidationException}, field {@code task}).
   */
  public List<TaskRun> taskRunSchedule(List<Long> taskIds) {
    Instant now = now();
    return store.taskRunSchedule(
        taskIds.stream().map(id -> new RunToSchedule(id, null, null, now)).toList());
  }

  public Optional<TaskRun> taskRunStart(String backendId, ObjectNode metadata) {
    return store.taskRunStart(backendId, metadata, now());
  }

  /** Ends a run and reschedules its task by the adaptive-interval and retry rules. */
  public Optional<TaskRun> taskRunEnd(String backendId, TaskRunStatus status, ObjectNode metadata) {
    return store.taskRunEnd(backendId, status, metadata, now());
  }

  public List<TaskRun> taskRuns(List<Long> taskIds, TaskRunStatus status, int limit) {
    return store.taskRunList(taskIds, status, limit);
  }

  /** Up to {@code limit} runs not ended yet, by owner: what each runner works on now. */
  public List<OpenRun> taskRunOpen(int limit) {
    return store.taskRunOpen(limit);
  }

  /** The names of the paused task types. */
  public List<String> taskTypesPaused() {
    return store.taskTypeListPaused();
  }

  // ---- archival

  /**
   * Visits every archivable run with run time in {@code [after, before)}, page by page, and returns
   * how many there were.
   */
  public long archiveEach(
      Instant after, Instant before, int pageSize, Consumer<List<ArchivableRun>> eachPage) {
    ValidationException.check(
        !after.isAfter(before), "after", "after " + after + " is later than before " + before);
    ValidationException.check(pageSize > 0, "page_size", "must be positive, got " + pageSize);
    long count = 0;
    String token = null;
    do {
      ArchivePage page = store.taskRunArchivable(after, before, pageSize, token);
      eachPage.accept(page.runs());
      count += page.runs().size();
      token = page.nextPageToken();
    } while (token != null);
    return count;
  }

  @Override
  public void close() {
    store.close();
  }
}
