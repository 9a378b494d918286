package dev.drover.store;

import static dev.drover.store.SqlQuery.EVENT_INSERT;
import static dev.drover.store.SqlQuery.EVENT_LIST;
import static dev.drover.store.SqlQuery.EVENT_TAIL;
import static dev.drover.store.SqlQuery.SETTING_LIST;
import static dev.drover.store.SqlQuery.SETTING_UPSERT;
import static dev.drover.store.SqlQuery.TASK_CHILDREN;
import static dev.drover.store.SqlQuery.TASK_COUNT_BY_ROOT;
import static dev.drover.store.SqlQuery.TASK_COUNT_BY_TYPE_AND_STATUS;
import static dev.drover.store.SqlQuery.TASK_COUNT_COMPACT;
import static dev.drover.store.SqlQuery.TASK_COUNT_DISABLED_BY_OPERATOR;
import static dev.drover.store.SqlQuery.TASK_COUNT_DUE_BY_TYPE;
import static dev.drover.store.SqlQuery.TASK_COUNT_OUTSTANDING;
import static dev.drover.store.SqlQuery.TASK_DELETE_WITHOUT_RUNS;
import static dev.drover.store.SqlQuery.TASK_ENABLE;
import static dev.drover.store.SqlQuery.TASK_FAMILY_GET;
import static dev.drover.store.SqlQuery.TASK_GET;
import static dev.drover.store.SqlQuery.TASK_GRAB_READY;
import static dev.drover.store.SqlQuery.TASK_NEXT_DUE;
import static dev.drover.store.SqlQuery.TASK_OLDEST_WAITING;
import static dev.drover.store.SqlQuery.TASK_PEEK_READY;
import static dev.drover.store.SqlQuery.TASK_RUN_ARCHIVABLE;
import static dev.drover.store.SqlQuery.TASK_RUN_DELETE;
import static dev.drover.store.SqlQuery.TASK_RUN_GET_BY_BACKEND_ID;
import static dev.drover.store.SqlQuery.TASK_RUN_INSERT;
import static dev.drover.store.SqlQuery.TASK_RUN_OPEN;
import static dev.drover.store.SqlQuery.TASK_RUN_START;
import static dev.drover.store.SqlQuery.TASK_SET_STATUS;
import static dev.drover.store.SqlQuery.TASK_SET_STATUS_EXCEPT_COMPLETED;
import static dev.drover.store.SqlQuery.TASK_TYPE_GET;
import static dev.drover.store.SqlQuery.TASK_TYPE_INSERT;
import static dev.drover.store.SqlQuery.TASK_TYPE_LIST;
import static dev.drover.store.SqlQuery.TASK_TYPE_LIST_PAUSED;
import static dev.drover.store.SqlQuery.TASK_TYPE_UPDATE;
import static dev.drover.store.SqlQuery.TASK_WAITING;
import static dev.drover.store.SqlQuery.WORKER_GROUP_LIST;
import static dev.drover.store.SqlQuery.WORKER_GROUP_UPSERT;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.VisitRequest;
import dev.drover.model.ArchivableRun;
import dev.drover.model.ArchivePage;
import dev.drover.model.Event;
import dev.drover.model.Named;
import dev.drover.model.NewTask;
import dev.drover.model.RunToSchedule;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.schedule.PriorityShares;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Update;

/**
 * The {@link Store} on either database. Dialect differences live in the SQL files, in one {@link
 * DialectSql} per database (how batches are written, how instants are stored) and in how the
 * connections are opened ({@link Stores}); everything else is shared. On SQLite every transaction
 * begins IMMEDIATE (see {@link Stores}), so a read-then-write transaction never fails half-way on a
 * lock upgrade.
 */
final class JdbiStore implements Store {
  private static final Comparator<Task> DUE_ORDER =
      Comparator.comparing(Task::nextRun).thenComparingLong(Task::id);

  private final Jdbi jdbi;
  private final DialectSql dialect;
  private final SqlFiles sql;
  private final Rows rows;
  private final AutoCloseable pool;
  private final RunEnder runEnder;
  private final Leases leases;
  private final RunnerTable runners;
  private final WorkSignal work;

  /** The runners of this process that take tasks as they are created (see CreateClaimer). */
  private final List<CreateClaimer> claimers = new CopyOnWriteArrayList<>();

  private final JdbiFrontierStore frontier;
  private final TaskInserts inserts;
  private final Children children;
  private final ChildEnds childEnds;
  private final TaskControls controls;
  private final CallerConnection callerConnection;
  private final String where;

  /** Whether a probe watches commits: creating one task then takes an ordinary transaction. */
  private final boolean probed;

  /**
   * @param database identifies the database within this process, for in-process wake-ups
   * @param where names the database in messages (no password)
   * @param listen starts hearing other processes' NOTIFY, or null on SQLite
   * @param extraHooks run-end hooks to call after the store's own (tests watch run ends with one)
   */
  JdbiStore(
      Jdbi jdbi,
      DialectSql dialect,
      AutoCloseable pool,
      String database,
      String where,
      PostgresListener.Starter listen,
      StoreProbe probe,
      List<RunEndHook> extraHooks) {
    this.jdbi = jdbi;
    this.dialect = dialect;
    this.sql = dialect.files();
    this.probed = probe != StoreProbe.NONE;
    if (probed) {
      ProbeHooks.install(jdbi, sql, probe);
    }
    this.rows = new Rows(dialect);
    this.pool = pool;
    // The run-end hooks, in the order they run: one line each.
    this.childEnds = new ChildEnds(dialect, rows);
    List<RunEndHook> runEndHooks =
        new ArrayList<>(List.of(VisitOutcomes.create(jdbi, dialect), childEnds));
    runEndHooks.addAll(extraHooks);
    // One parse of each task type row, shared: creating tasks and ending runs both read types.
    ParsedTaskTypes parsedTypes = new ParsedTaskTypes(rows);
    this.runEnder = new RunEnder(dialect, rows, parsedTypes, runEndHooks);
    this.runners = new JdbiRunnerTable(jdbi, dialect);
    this.work = new WorkSignal(database, jdbi, listen);
    this.frontier = new JdbiFrontierStore(jdbi, dialect);
    this.inserts = new TaskInserts(dialect, rows, parsedTypes, work);
    this.children = new Children(sql, inserts, work);
    this.leases = new Leases(jdbi, dialect, rows, runEnder, children, childEnds);
    this.controls = new TaskControls(jdbi, dialect, rows, runEnder, childEnds);
    this.callerConnection = new CallerConnection(dialect);
    this.where = where;
  }

  @Override
  public Map<String, Long> taskCountDisabledByOperator() {
    Map<String, Long> counts = new TreeMap<>();
    jdbi.useHandle(
        h ->
            h.createQuery(sql.get(TASK_COUNT_DISABLED_BY_OPERATOR))
                .map((rs, ctx) -> counts.put(rs.getString("type"), rs.getLong("n")))
                .list());
    return counts;
  }

  @Override
  public Map<TaskStatus, Long> taskCountByRoot(long root) {
    Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
    jdbi.useHandle(
        h ->
            h.createQuery(sql.get(TASK_COUNT_BY_ROOT))
                .bind("root", root)
                .map(
                    (rs, ctx) ->
                        counts.put(
                            TaskStatus.parse("status", rs.getString("status")), rs.getLong("n")))
                .list());
    return counts;
  }

  @Override
  public int taskPause(List<Long> ids, boolean tree) {
    return controls.pause(ids, tree);
  }

  @Override
  public int taskResume(List<Long> ids, boolean tree) {
    int resumed = controls.resume(ids, tree);
    return signalIf(resumed > 0, resumed);
  }

  @Override
  public boolean taskTypePause(String name, boolean paused) {
    boolean changed = controls.typePause(name, paused);
    return signalIf(changed && !paused, changed);
  }

  @Override
  public int taskCancel(List<Long> ids, boolean tree, Instant now) {
    return controls.cancel(ids, tree, now);
  }

  @Override
  public int taskRetry(List<Long> ids, Instant now) {
    int retried = controls.retry(ids, now);
    return signalIf(retried > 0, retried);
  }

  @Override
  public TaskDeletion taskDelete(List<Long> ids, boolean tree, Instant now) {
    return controls.delete(ids, tree, now);
  }

  @Override
  public List<TaskFamily> taskFamily(List<Long> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(TASK_FAMILY_GET))
                .bindList("ids", ids)
                .map(
                    (rs, ctx) ->
                        new TaskFamily(
                            rs.getLong("id"),
                            rs.getObject("parent") == null ? null : rs.getLong("parent"),
                            rs.getLong("root"),
                            rs.getInt("children_pending"),
                            rs.getInt("children_total"),
                            rs.getInt("children_failed"),
                            "operator".equals(rs.getString("disabled_by"))))
                .list());
  }

  @Override
  public List<Task> taskChildren(long parent, long afterId, int limit) {
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(TASK_CHILDREN))
                .bind("parent", parent)
                .bind("after", afterId)
                .bind("limit", limit)
                .map(rows.task)
                .list());
  }

  @Override
  public String where() {
    return where;
  }

  @Override
  public RunnerTable runners() {
    return runners;
  }

  @Override
  public AutoCloseable onWork(Runnable listener) {
    return work.subscribe(listener);
  }

  @Override
  public AutoCloseable claimOnCreate(CreateClaimer claimer) {
    claimers.add(claimer);
    return () -> claimers.remove(claimer);
  }

  /** Wakes runners if {@code changed}, then returns {@code result}. */
  private <T> T signalIf(boolean changed, T result) {
    if (changed) {
      work.signal();
    }
    return result;
  }

  @Override
  public Dialect dialect() {
    return dialect.dialect();
  }

  @Override
  public FrontierStore frontier() {
    return frontier;
  }

  // ---- task types, worker groups, settings

  @Override
  public boolean taskTypeCreate(TaskType type) {
    CommandTemplate.checked(type);
    return jdbi.withHandle(
        h -> bindTaskType(h.createUpdate(sql.get(TASK_TYPE_INSERT)), type).execute() == 1);
  }

  @Override
  public UpsertResult taskTypeUpsert(TaskType type) {
    CommandTemplate.checked(type);
    return jdbi.inTransaction(
        h -> {
          Optional<TaskType> existing = taskTypeGet(h, type.name());
          if (existing.isEmpty()) {
            bindTaskType(h.createUpdate(sql.get(TASK_TYPE_INSERT)), type).execute();
            return UpsertResult.CREATED;
          }
          if (existing.get().equals(type)) {
            return UpsertResult.UNCHANGED;
          }
          bindTaskType(h.createUpdate(sql.get(TASK_TYPE_UPDATE)), type).execute();
          return UpsertResult.UPDATED;
        });
  }

  private static Update bindTaskType(Update update, TaskType t) {
    return update
        .bind("name", t.name())
        .bind("description", t.description())
        .bind("default_interval_ms", Columns.millis(t.defaultInterval()))
        .bind("min_interval_ms", Columns.millis(t.minInterval()))
        .bind("max_interval_ms", Columns.millis(t.maxInterval()))
        .bind("backoff_factor", t.backoffFactor())
        .bind("max_queue_length", t.maxQueueLength())
        .bind("num_retries", t.numRetries())
        .bind("retry_delay_ms", Columns.millis(t.retryDelay()))
        .bind("lease_ms", Columns.millis(t.lease()))
        .bind("timeout_ms", Columns.millis(t.timeout()))
        .bind("max_workers", t.maxWorkers())
        .bind("worker_group", t.workerGroup())
        .bind("command", Columns.json(t.command()))
        .bind("working_dir", t.workingDir())
        .bind("env", Columns.json(t.env()))
        .bind("concurrency_key", t.concurrencyKey())
        .bind("max_per_key", t.maxPerKey())
        .bind("cron", t.cron() == null ? null : t.cron().expression())
        .bind("time_zone", t.cron() == null ? null : t.cron().zone().getId())
        .bind("children_rule", t.childrenRule().dbName())
        .bind("run_history", t.runHistory().dbName());
  }

  @Override
  public Optional<TaskType> taskTypeGet(String name) {
    return jdbi.withHandle(h -> taskTypeGet(h, name));
  }

  private Optional<TaskType> taskTypeGet(Handle h, String name) {
    return h.createQuery(sql.get(TASK_TYPE_GET)).bind("name", name).map(rows.taskType).findOne();
  }

  @Override
  public List<TaskType> taskTypeList() {
    return jdbi.withHandle(h -> h.createQuery(sql.get(TASK_TYPE_LIST)).map(rows.taskType).list());
  }

  @Override
  public void workerGroupUpsert(WorkerGroup group) {
    jdbi.useHandle(
        h ->
            h.createUpdate(sql.get(WORKER_GROUP_UPSERT))
                .bind("name", group.name())
                .bind("max_workers", group.maxWorkers())
                .execute());
  }

  @Override
  public List<WorkerGroup> workerGroupList() {
    return jdbi.withHandle(
        h -> h.createQuery(sql.get(WORKER_GROUP_LIST)).map(rows.workerGroup).list());
  }

  @Override
  public void settingPut(String name, String value) {
    jdbi.useHandle(
        h ->
            h.createUpdate(sql.get(SETTING_UPSERT))
                .bind("name", name)
                .bind("value", value)
                .execute());
  }

  @Override
  public Map<String, String> settingList() {
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(SETTING_LIST))
                .map((rs, ctx) -> Map.entry(rs.getString("name"), rs.getString("value")))
                .collect(
                    Collectors.toMap(
                        Map.Entry::getKey, Map.Entry::getValue, (a, b) -> b, LinkedHashMap::new)));
  }

  // ---- tasks

  @Override
  public List<Task> taskCreate(List<NewTask> tasks, Instant now) {
    // One task is written by one statement, after the reads that check it (TaskInserts), which
    // needs less than a JDBC transaction; but a probe is promised a commit to fail.
    return creating(
        claim ->
            tasks.size() == 1 && !probed
                ? dialect.inSingleWrite(jdbi, h -> inserts.create(h, tasks, now, claim))
                : jdbi.inTransaction(h -> inserts.create(h, tasks, now, claim)));
  }

  @Override
  public List<List<ListedOrigin>> visitSchedule(
      List<VisitRequest> requests, VisitTasks tasks, Instant now) {
    List<List<ListedOrigin>> grabbed = new ArrayList<>();
    creating(
        claim ->
            jdbi.inTransaction(
                h -> {
                  grabbed.clear(); // a transaction tried again starts afresh
                  List<ListedOrigin> all = new ArrayList<>();
                  for (VisitRequest r : requests) {
                    List<ListedOrigin> got = frontier.originGrabNextVisits(h, r, now);
                    grabbed.add(got);
                    all.addAll(got);
                  }
                  return all.isEmpty()
                      ? List.<Task>of()
                      : inserts.create(h, tasks.of(all, frontier.listersOf(h, all)), now, claim);
                }));
    return List.copyOf(grabbed);
  }

  /**
   * Runs {@code write}, a transaction that creates tasks and may let a runner of this process claim
   * one on the way; once it has committed the runner gets its claim, or its slot back if it failed
   * or claimed nothing, and a local runner is woken for the tasks created that nobody claimed.
   */
  private List<Task> creating(Function<ClaimOnCreate, List<Task>> write) {
    ClaimOnCreate claim = new ClaimOnCreate(claimers);
    List<Task> out;
    try {
      out = write.apply(claim);
    } catch (RuntimeException | Error e) {
      claim.failed();
      throw e;
    }
    // A task claimed on create needs no runner woken: the one that took it was told.
    if (!claim.committed() && !out.isEmpty()) {
      work.wakeLocal();
    }
    return out;
  }

  @Override
  public List<Task> taskCreateChildren(long parent, List<NewTask> tasks, Instant now) {
    ValidationException.check(!tasks.isEmpty(), "tasks", "give at least one task to add");
    List<Task> out =
        jdbi.inTransaction(
            h -> {
              OptionalLong after = children.adopt(h, parent, tasks, now);
              if (after.isEmpty()) {
                throw new ValidationException("parent", whyNoChildren(h, parent));
              }
              return h.createQuery(sql.get(TASK_CHILDREN))
                  .bind("parent", parent)
                  .bind("after", after.getAsLong())
                  .bind("limit", tasks.size())
                  .map(rows.task)
                  .list();
            });
    work.wakeLocal();
    return out;
  }

  /** Why {@code parent} takes no children: it does not exist, or its status. */
  private String whyNoChildren(Handle h, long parent) {
    return h.createQuery(sql.get(TASK_GET))
        .bindList("ids", List.of(parent))
        .map(rows.task)
        .findFirst()
        .map(
            t ->
                "task "
                    + parent
                    + " is "
                    + t.status().word()
                    + (t.policy() == TaskPolicy.RECURRING ? " and recurring" : "")
                    + "; tasks can be added under a parent that is awaiting its children, or"
                    + " under a oneshot parent that is done or failed")
        .orElse("no task " + parent);
  }

  @Override
  public List<Task> taskCreate(java.sql.Connection connection, List<NewTask> tasks, Instant now) {
    // No local wake-up: the tasks are not visible until the application commits. On PostgreSQL
    // the queued NOTIFY reaches every listening runner, this process's included, at the commit.
    return callerConnection.withHandle(connection, h -> inserts.create(h, tasks, now));
  }

  @Override
  public long taskCreateAll(Iterator<NewTask> tasks, Instant now, Consumer<List<Task>> stored) {
    long count =
        jdbi.inTransaction(
            h -> {
              long n = 0;
              List<NewTask> chunk = new ArrayList<>(TaskInserts.BULK_CHUNK);
              while (tasks.hasNext()) {
                chunk.add(tasks.next());
                if (chunk.size() == TaskInserts.BULK_CHUNK || !tasks.hasNext()) {
                  stored.accept(inserts.create(h, chunk, now));
                  n += chunk.size();
                  chunk.clear();
                }
              }
              return n;
            });
    if (count > 0) {
      work.wakeLocal();
    }
    return count;
  }

  @Override
  public List<Task> taskGet(List<Long> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return jdbi.withHandle(
        h -> h.createQuery(sql.get(TASK_GET)).bindList("ids", ids).map(rows.task).list());
  }

  @Override
  public List<Task> taskSearch(TaskQuery q) {
    Where where =
        new Where()
            .in("id IN (<ids>)", "ids", q.ids())
            .in("type IN (<types>)", "types", q.types())
            .in("status IN (<statuses>)", "statuses", names(q.statuses()))
            .in("priority IN (<priorities>)", "priorities", names(q.priorities()))
            .eq("policy = :policy", "policy", dbName(q.policy()))
            .eq("next_run <= :before", "before", q.before())
            .eq("next_run >= :after", "after", q.after())
            .eq("id > :after_id", "after_id", q.afterId());
    String limit = q.limit() == null ? "" : " LIMIT " + q.limit();
    return jdbi.withHandle(
        h ->
            where
                .bind(h.createQuery("SELECT * FROM task" + where.sql() + " ORDER BY id" + limit))
                .map(rows.task)
                .list());
  }

  @Override
  public int taskSetStatus(
      List<Long> ids, TaskStatus status, Instant nextRun, boolean exceptCompleted, Instant now) {
    if (ids.isEmpty()) {
      return 0;
    }
    if (status == TaskStatus.DISABLED && nextRun == null && !exceptCompleted) {
      return leases.disable(ids, now); // ends the runs of running tasks, too
    }
    SqlQuery query = exceptCompleted ? TASK_SET_STATUS_EXCEPT_COMPLETED : TASK_SET_STATUS;
    int changed =
        jdbi.withHandle(
            h -> {
              Update update =
                  h.createUpdate(sql.get(query))
                      .bindList("ids", ids)
                      .bind("status", status.dbName())
                      .bind("next_run", nextRun);
              return exceptCompleted ? update.bind("now", now).execute() : update.execute();
            });
    return signalIf(changed > 0 && status == TaskStatus.NEXT_RUN_NOT_SCHEDULED, changed);
  }

  @Override
  public int taskEnable(List<Long> ids, Instant nextRun) {
    if (ids.isEmpty()) {
      return 0;
    }
    int enabled =
        jdbi.withHandle(
            h ->
                h.createUpdate(sql.get(TASK_ENABLE))
                    .bindList("ids", ids)
                    .bind("next_run", Objects.requireNonNull(nextRun, "null nextRun"))
                    .execute());
    return signalIf(enabled > 0, enabled);
  }

  @Override
  public List<Task> taskPeekReady(String type, Instant now, int limit) {
    return jdbi.withHandle(h -> ready(h, TASK_PEEK_READY, type, now, null, limit));
  }

  @Override
  public List<Task> taskPeekReadyPriority(
      String type, Instant now, int limit, PriorityShares shares) {
    return jdbi.withHandle(
        h -> shares.take(limit, (p, n) -> ready(h, TASK_PEEK_READY, type, now, p, n)));
  }

  @Override
  public List<Task> taskGrabReady(
      String type, Instant now, int limit, int priorityLimit, PriorityShares shares) {
    return jdbi.inTransaction(
        h -> {
          List<Task> grabbed =
              new ArrayList<>(
                  shares.take(priorityLimit, (p, n) -> ready(h, TASK_GRAB_READY, type, now, p, n)));
          int budget = limit + (priorityLimit - grabbed.size());
          if (budget > 0) {
            grabbed.addAll(ready(h, TASK_GRAB_READY, type, now, null, budget));
          }
          return grabbed;
        });
  }

  private List<Task> ready(
      Handle h, SqlQuery query, String type, Instant now, TaskPriority priority, int limit) {
    List<Task> tasks =
        new ArrayList<>(
            h.createQuery(sql.get(query))
                .bind("type", type)
                .bind("now", now)
                .bind("priority", dbName(priority))
                .bind("limit", limit)
                .map(rows.task)
                .list());
    tasks.sort(DUE_ORDER);
    return tasks;
  }

  @Override
  public List<StatusCount> taskCountByTypeAndStatus() {
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(TASK_COUNT_BY_TYPE_AND_STATUS))
                .map(
                    (rs, ctx) ->
                        new StatusCount(
                            rs.getString("type"),
                            TaskStatus.parse("status", rs.getString("status")),
                            rs.getLong("n")))
                .list());
  }

  @Override
  public void taskCountCompact() {
    jdbi.useHandle(h -> h.createUpdate(sql.get(TASK_COUNT_COMPACT)).execute());
  }

  @Override
  public Map<String, Long> taskCountDueByType(Instant now) {
    return jdbi.withHandle(
        h -> {
          Map<String, Long> due = new TreeMap<>();
          h.createQuery(sql.get(TASK_COUNT_DUE_BY_TYPE))
              .bind("now", now)
              .map((rs, ctx) -> due.put(rs.getString("type"), rs.getLong("n")))
              .list();
          return due;
        });
  }

  // ---- task runs

  @Override
  public List<TaskRun> taskRunSchedule(List<RunToSchedule> runs) {
    return jdbi.inTransaction(
        h -> {
          List<TaskRun> out = new ArrayList<>();
          for (RunToSchedule r : runs) {
            out.add(
                h.createQuery(sql.get(TASK_RUN_INSERT))
                    .bind("task", r.taskId())
                    .bind(
                        "backend_id",
                        r.backendId() == null ? UUID.randomUUID().toString() : r.backendId())
                    .bind("scheduled", r.scheduled())
                    .bind(
                        "metadata",
                        Json.canonical(r.metadata() == null ? Json.object() : r.metadata()))
                    .map(rows.taskRun)
                    .findOne()
                    .orElseThrow(() -> new ValidationException("task", "no task " + r.taskId())));
          }
          return out;
        });
  }

  @Override
  public Optional<TaskRun> taskRunStart(String backendId, ObjectNode metadata, Instant at) {
    return jdbi.inTransaction(
        h ->
            taskRunGet(h, backendId)
                .map(
                    run ->
                        h.createQuery(sql.get(TASK_RUN_START))
                            .bind("id", run.id())
                            .bind("started", at)
                            .bind("metadata", Json.canonical(Json.merge(run.metadata(), metadata)))
                            .map(rows.taskRun)
                            .one()));
  }

  @Override
  public Optional<TaskRun> taskRunEnd(
      String backendId, TaskRunStatus status, ObjectNode metadata, Instant at) {
    if (!status.isFinal()) {
      throw new ValidationException("status", "'" + status.dbName() + "' does not end a run");
    }
    return jdbi.inTransaction(
        h -> {
          Optional<TaskRun> found = taskRunGet(h, backendId);
          if (found.isEmpty()) {
            return found;
          }
          List<EndedRun> ended = new ArrayList<>();
          TaskRun run = runEnder.end(h, found.get(), status, metadata, at, ended);
          runEnder.runHooks(h, ended, at);
          return Optional.of(run);
        });
  }

  @Override
  public Optional<TaskRun> taskRunGet(String backendId) {
    return jdbi.withHandle(h -> taskRunGet(h, backendId));
  }

  private Optional<TaskRun> taskRunGet(Handle h, String backendId) {
    return h.createQuery(sql.get(TASK_RUN_GET_BY_BACKEND_ID))
        .bind("backend_id", backendId)
        .map(rows.taskRun)
        .findOne();
  }

  @Override
  public List<TaskRun> taskRunList(List<Long> taskIds, TaskRunStatus status, int limit) {
    Where where =
        new Where()
            .in("task IN (<tasks>)", "tasks", taskIds)
            .eq("status = :status", "status", dbName(status));
    return jdbi.withHandle(
        h ->
            where
                .bind(
                    h.createQuery(
                        "SELECT * FROM task_run" + where.sql() + " ORDER BY id DESC LIMIT :limit"))
                .bind("limit", limit)
                .map(rows.taskRun)
                .list());
  }

  @Override
  public List<OpenRun> taskRunOpen(int limit) {
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(TASK_RUN_OPEN))
                .bind("limit", limit)
                .map(
                    (rs, ctx) ->
                        new OpenRun(
                            rows.taskRun.map(rs, ctx),
                            rs.getString("task_type"),
                            rs.getString("owner")))
                .list());
  }

  @Override
  public List<String> taskTypeListPaused() {
    return jdbi.withHandle(
        h -> h.createQuery(sql.get(TASK_TYPE_LIST_PAUSED)).mapTo(String.class).list());
  }

  // ---- claims and leases

  @Override
  public PassResult taskPass(Pass pass) {
    return leases.pass(pass);
  }

  @Override
  public List<Lease> taskHeartbeat(String owner, List<Lease> held, Instant leaseUntil) {
    return leases.heartbeat(owner, held, leaseUntil);
  }

  @Override
  public List<Long> taskRescueExpired(Instant now, int limit) {
    List<Long> rescued = leases.rescueExpired(now, limit);
    return signalIf(!rescued.isEmpty(), rescued);
  }

  @Override
  public List<Long> taskRescueOwner(String owner, Instant now, boolean charge) {
    List<Long> rescued = leases.rescueOwner(owner, now, charge);
    return signalIf(!rescued.isEmpty(), rescued);
  }

  @Override
  public TaskWaiting taskWaiting(List<String> types, Instant now) {
    if (types.isEmpty()) {
      return TaskWaiting.NONE;
    }
    Columns columns = new Columns(dialect);
    TaskWaiting[] w = {TaskWaiting.NONE};
    jdbi.useHandle(
        h ->
            h.createQuery(sql.get(TASK_WAITING))
                .bindList("types", types)
                .bind("now", now)
                .map(
                    (rs, ctx) -> {
                      long n = rs.getLong("n");
                      Instant first = columns.instant(rs, "first_due");
                      TaskWaiting t = w[0];
                      w[0] =
                          "retry".equals(rs.getString("kind"))
                              ? new TaskWaiting(n, first, t.later(), t.firstLater())
                              : new TaskWaiting(t.retries(), t.firstRetry(), n, first);
                      return n;
                    })
                .list());
    return w[0];
  }

  @Override
  public int taskRelease(String owner, List<Lease> held, Instant now) {
    int released = leases.release(owner, held, now);
    return signalIf(released > 0, released);
  }

  @Override
  public long taskCountOutstanding(List<String> types, Instant now) {
    if (types.isEmpty()) {
      return 0;
    }
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(TASK_COUNT_OUTSTANDING))
                .bindList("types", types)
                .bind("now", now)
                .mapTo(Long.class)
                .one());
  }

  @Override
  public Optional<Instant> taskNextDue(List<String> types, Instant after, Instant before) {
    if (types.isEmpty()) {
      return Optional.empty();
    }
    Columns columns = new Columns(dialect);
    // One query per type: each is answered from an index (see the SQL file).
    return jdbi.withHandle(
        h ->
            types.stream()
                .flatMap(
                    type ->
                        h.createQuery(sql.get(TASK_NEXT_DUE))
                            .bind("type", type)
                            .bind("after", after)
                            .bind("before", before)
                            .map(
                                (rs, ctx) ->
                                    Stream.of(
                                        columns.instant(rs, "waiting"),
                                        columns.instant(rs, "leased")))
                            .one())
                .filter(Objects::nonNull)
                .min(Comparator.naturalOrder()));
  }

  @Override
  public Optional<Instant> taskOldestWaiting(String type) {
    Columns columns = new Columns(dialect);
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(TASK_OLDEST_WAITING))
                .bind("type", type)
                .map((rs, ctx) -> Optional.ofNullable(columns.instant(rs, "waiting")))
                .one());
  }

  // ---- event log

  @Override
  public void eventAppend(List<Event> events) {
    if (events.isEmpty()) {
      return;
    }
    jdbi.useTransaction(
        h -> {
          var batch = h.prepareBatch(sql.get(EVENT_INSERT));
          for (Event e : events) {
            batch
                .bind("at", e.at())
                .bind("kind", e.kind())
                .bind("runner", e.runner())
                .bind("task", e.taskId())
                .bind("detail", Json.canonical(e.detail()))
                .add();
          }
          batch.execute();
        });
  }

  @Override
  public List<Event> eventList(long afterId, int limit) {
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(EVENT_LIST))
                .bind("after_id", afterId)
                .bind("limit", limit)
                .map(rows.event)
                .list());
  }

  @Override
  public List<Event> eventTail(int limit) {
    return jdbi.withHandle(
        h -> h.createQuery(sql.get(EVENT_TAIL)).bind("limit", limit).map(rows.event).list());
  }

  // ---- archival

  @Override
  public ArchivePage taskRunArchivable(Instant after, Instant before, int limit, String pageToken) {
    ArchiveToken from = ArchiveToken.parse(pageToken);
    List<ArchivableRun> page =
        jdbi.withHandle(
            h ->
                h.createQuery(sql.get(TASK_RUN_ARCHIVABLE))
                    .bind("after", after)
                    .bind("before", before)
                    .bind("after_task", from.taskId())
                    .bind("after_run", from.runId())
                    .bind("limit", limit + 1)
                    .map(rows.archivableRun)
                    .list());
    if (page.size() <= limit) {
      return new ArchivePage(page, null);
    }
    ArchivableRun last = page.get(limit - 1);
    return new ArchivePage(
        page.subList(0, limit), new ArchiveToken(last.taskId(), last.taskRunId()).toString());
  }

  @Override
  public ArchiveDeletion archiveDelete(List<Long> taskIds, List<Long> taskRunIds) {
    return jdbi.inTransaction(
        h -> {
          if (!taskIds.isEmpty()) {
            dialect.lockTasksForDeletion(h, taskIds);
          }
          int runs =
              taskRunIds.isEmpty()
                  ? 0
                  : h.createUpdate(sql.get(TASK_RUN_DELETE)).bindList("ids", taskRunIds).execute();
          int tasks =
              taskIds.isEmpty()
                  ? 0
                  : h.createUpdate(sql.get(TASK_DELETE_WITHOUT_RUNS))
                      .bindList("ids", taskIds)
                      .execute();
          return new ArchiveDeletion(runs, tasks);
        });
  }

  @Override
  public Optional<javax.sql.DataSource> dataSource() {
    if (pool instanceof Stores.CheckpointedPool p) {
      return Optional.of(p.pool());
    }
    return pool instanceof javax.sql.DataSource ds ? Optional.of(ds) : Optional.empty();
  }

  @Override
  public void close() {
    work.close();
    try {
      pool.close();
    } catch (Exception e) {
      throw new DroverException("cannot close the database", e);
    }
  }

  private static String dbName(Named value) {
    return value == null ? null : value.dbName();
  }

  private static List<String> names(List<? extends Named> values) {
    return values.stream().map(Named::dbName).toList();
  }
}
