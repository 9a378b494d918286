package dev.drover.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.store.Completion;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.Rescheduler;
import dev.drover.schedule.TaskUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * Ends a run and reschedules its task, inside the caller's transaction. Every way a run ends
 * (reported, completed by its owner, rescued, released) goes through here, so the rules are
 * applied once. Each method adds the runs it ended to the caller's {@code ended} list; the caller
 * hands that list to {@link #runHooks} last in the transaction, so every {@link RunEndHook} sees
 * the transaction's ends in one batch, after every task row it locks.
 */
final class RunEnder {
  private final SqlFiles sql;
  private final Rows rows;
  private final List<RunEndHook> hooks;

  RunEnder(SqlFiles sql, Rows rows, List<RunEndHook> hooks) {
    this.sql = sql;
    this.rows = rows;
    this.hooks = List.copyOf(hooks);
  }

  /** Calls every hook with the runs this transaction ended, if any; call it last. */
  void runHooks(Handle h, List<EndedRun> ended, Instant at) {
    if (ended.isEmpty()) {
      return;
    }
    List<EndedRun> runs = List.copyOf(ended);
    for (RunEndHook hook : hooks) {
      hook.ended(h, runs, at);
    }
  }

  /**
   * A run to end with {@code status}: the run, its task as read in this transaction, and when its
   * worker began it if that was not written yet (else null).
   */
  record Ending(TaskRun run, Task task, int attempt, TaskRunStatus status, ObjectNode metadata, Instant started) {}

  /** Ends {@code run} and reschedules its task by the rules; adds it to {@code ended}. */
  TaskRun end(Handle h, TaskRun run, TaskRunStatus status, ObjectNode metadata, Instant at,
      List<EndedRun> ended) {
    TaskRun closed = closeRun(h, run, status, metadata, at);
    Task task = h.createQuery(sql.get("taskGet")).bindList("ids", List.of(run.taskId())).map(rows.task).one();
    reschedule(h, task, status, at);
    ended.add(new EndedRun(task, closed, status));
    return closed;
  }

  /**
   * Ends many runs and reschedules their tasks by the rules, as {@link #end} does one by one, but
   * with one statement or JDBC batch for the runs and one for the tasks, reading each task type
   * once. Adds them to {@code ended}.
   */
  void endAll(Handle h, String owner, List<Ending> endings, Instant at, List<EndedRun> ended) {
    if (endings.isEmpty()) {
      return;
    }
    Map<String, TaskType> types = new HashMap<>();
    PreparedBatch tasks = h.prepareBatch(sql.get("taskUpdateAfterRun"));
    for (Ending e : endings) {
      TaskType type = types.computeIfAbsent(e.task().type(), name -> taskType(h, e.task()));
      bindUpdate(tasks, e.task(), Rescheduler.afterRun(e.task(), type, e.status(), at)).add();
    }
    endRuns(h, owner, endings, at, ended);
    tasks.execute();
  }

  /**
   * Ends, as {@link #endAll} does, the runs of {@code completions} whose task {@code owner} still
   * holds and is still exactly as {@code Completion.claimed} shows it; the update is computed from
   * the claim, so no task is read. Returns the completions it could not end that way (the lease
   * was lost, or the row changed since the claim): the caller reads those and ends them, or not.
   */
  List<Completion> endAsClaimed(Handle h, String owner, List<Completion> completions, Instant at,
      List<EndedRun> ended) {
    if (completions.isEmpty()) {
      return List.of();
    }
    Map<String, TaskType> types = new HashMap<>();
    List<TaskUpdate> updates = new ArrayList<>(completions.size());
    for (Completion c : completions) {
      Task task = c.claimed().task();
      TaskType type = types.computeIfAbsent(task.type(), name -> taskType(h, task));
      updates.add(Rescheduler.afterRun(task, type, c.status(), at));
    }
    boolean[] updated = sql.dialect() == Dialect.POSTGRESQL
        ? updateAsClaimedInOneStatement(h, owner, completions, updates)
        : updateAsClaimedInABatch(h, owner, completions, updates);
    List<Ending> endings = new ArrayList<>();
    List<Completion> left = new ArrayList<>();
    for (int i = 0; i < completions.size(); i++) {
      Completion c = completions.get(i);
      if (updated[i]) {
        endings.add(new Ending(c.claimed().run(), c.claimed().task(), c.lease().attempt(), c.status(), c.metadata(),
            c.started()));
      } else {
        left.add(c);
      }
    }
    endRuns(h, owner, endings, at, ended);
    return left;
  }

  /** SQLite: one fenced update per row in a JDBC batch (taskUpdateAfterRunAsClaimed). */
  private boolean[] updateAsClaimedInABatch(Handle h, String owner, List<Completion> completions,
      List<TaskUpdate> updates) {
    PreparedBatch batch = h.prepareBatch(sql.get("taskUpdateAfterRunAsClaimed"));
    for (int i = 0; i < completions.size(); i++) {
      Completion c = completions.get(i);
      Task task = c.claimed().task();
      bindUpdate(batch, task, updates.get(i))
          .bind("owner", owner)
          .bind("attempt", c.lease().attempt())
          .bind("claimed_next_run", task.nextRun())
          .bind("claimed_interval_ms", Columns.millis(task.currentInterval()))
          .bind("claimed_retries_left", task.retriesLeft())
          .add();
    }
    int[] counts = batch.execute();
    boolean[] updated = new boolean[counts.length];
    for (int i = 0; i < counts.length; i++) {
      updated[i] = counts[i] == 1;
    }
    return updated;
  }

  /** PostgreSQL: the whole batch as arrays in one statement, which returns the ids it updated. */
  private boolean[] updateAsClaimedInOneStatement(Handle h, String owner, List<Completion> completions,
      List<TaskUpdate> updates) {
    List<Task> tasks = completions.stream().map(c -> c.claimed().task()).toList();
    Set<Long> ids = new HashSet<>(h.createQuery(sql.get("taskUpdateAfterRunAsClaimedBatch"))
        .bind("owner", owner)
        .bindArray("ids", Long.class, tasks.stream().map(Task::id).toList())
        .bindArray("attempts", Integer.class, completions.stream().map(c -> c.lease().attempt()).toList())
        .bindArray("statuses", String.class, updates.stream().map(u -> u.status().dbName()).toList())
        .bindArray("next_run_ms", Long.class, updates.stream().map(u -> epochMillis(u.nextRun())).toList())
        .bindArray("current_interval_ms", Long.class,
            updates.stream().map(u -> Columns.millis(u.currentInterval())).toList())
        .bindArray("retries_left", Integer.class, updates.stream().map(TaskUpdate::retriesLeft).toList())
        .bindArray("claimed_next_run_ms", Long.class, tasks.stream().map(t -> epochMillis(t.nextRun())).toList())
        .bindArray("claimed_interval_ms", Long.class,
            tasks.stream().map(t -> Columns.millis(t.currentInterval())).toList())
        .bindArray("claimed_retries_left", Integer.class, tasks.stream().map(Task::retriesLeft).toList())
        .mapTo(Long.class).list());
    boolean[] updated = new boolean[tasks.size()];
    for (int i = 0; i < updated.length; i++) {
      updated[i] = ids.contains(tasks.get(i).id());
    }
    return updated;
  }

  /**
   * Writes the ends of {@code endings}' runs (whole, for queued runs never written), and adds them
   * to {@code ended}.
   */
  private void endRuns(Handle h, String owner, List<Ending> endings, Instant at, List<EndedRun> ended) {
    if (endings.isEmpty()) {
      return;
    }
    List<String> metadata = new ArrayList<>(endings.size());
    for (Ending e : endings) {
      ObjectNode merged = Json.merge(e.run().metadata(), e.metadata());
      metadata.add(Json.canonical(merged));
      TaskRun r = e.run();
      Instant started = e.started() != null ? e.started() : r.started();
      ended.add(new EndedRun(e.task(), new TaskRun(r.id(), r.taskId(), r.backendId(), r.scheduled(),
          started, at, merged, e.status()), e.status()));
    }
    if (sql.dialect() == Dialect.POSTGRESQL) {
      h.createUpdate(sql.get("taskRunEndMany"))
          .bind("ended", at)
          .bind("owner", owner)
          .bindArray("tasks", Long.class, endings.stream().map(e -> e.run().taskId()).toList())
          .bindArray("backend_ids", String.class, endings.stream().map(e -> e.run().backendId()).toList())
          .bindArray("scheduled_ms", Long.class, endings.stream().map(e -> epochMillis(e.run().scheduled())).toList())
          .bindArray("started_ms", Long.class, endings.stream().map(e -> epochMillis(e.started())).toList())
          .bindArray("metadata", String.class, metadata)
          .bindArray("statuses", String.class, endings.stream().map(e -> e.status().dbName()).toList())
          .bindArray("attempts", Integer.class, endings.stream().map(Ending::attempt).toList())
          .execute();
      return;
    }
    PreparedBatch runs = h.prepareBatch(sql.get("taskRunEndMany"));
    for (int i = 0; i < endings.size(); i++) {
      Ending e = endings.get(i);
      runs.bind("task", e.run().taskId())
          .bind("backend_id", e.run().backendId())
          .bind("scheduled", e.run().scheduled())
          .bindByType("started", e.started(), Instant.class)
          .bind("ended", at)
          .bind("metadata", metadata.get(i))
          .bind("status", e.status().dbName())
          .bind("owner", owner)
          .bind("attempt", e.attempt())
          .add();
    }
    runs.execute();
  }

  private static Long epochMillis(Instant t) {
    return t == null ? null : t.toEpochMilli();
  }

  /**
   * Ends {@code run} with its metadata merged, leaving its task as it is (a release charges
   * nothing); adds it to {@code ended}.
   */
  TaskRun close(Handle h, Task task, TaskRun run, TaskRunStatus status, ObjectNode metadata, Instant at,
      List<EndedRun> ended) {
    TaskRun closed = closeRun(h, run, status, metadata, at);
    ended.add(new EndedRun(task, closed, status));
    return closed;
  }

  private TaskRun closeRun(Handle h, TaskRun run, TaskRunStatus status, ObjectNode metadata, Instant at) {
    return h.createQuery(sql.get("taskRunEnd"))
        .bind("id", run.id())
        .bind("ended", at)
        .bind("status", status.dbName())
        .bind("metadata", Json.canonical(Json.merge(run.metadata(), metadata)))
        .map(rows.taskRun).one();
  }

  /**
   * Records the lost run of a queued claim that was never written (its worker never began it) and
   * reschedules its task as a failed attempt; adds the run to {@code ended}.
   */
  void endUnwrittenLost(Handle h, Task task, int attempt, ObjectNode metadata, Instant at,
      List<EndedRun> ended) {
    h.createQuery(sql.get("taskRunInsertLost"))
        .bind("task", task.id()).bind("attempt", attempt).bind("now", at)
        .bind("metadata", Json.canonical(metadata))
        .map(rows.taskRun).findOne()
        .ifPresent(run -> ended.add(new EndedRun(task, run, TaskRunStatus.LOST)));
    reschedule(h, task, TaskRunStatus.LOST, at);
  }

  private void reschedule(Handle h, Task task, TaskRunStatus status, Instant at) {
    TaskUpdate u = Rescheduler.afterRun(task, taskType(h, task), status, at);
    bindUpdate(h.createUpdate(sql.get("taskUpdateAfterRun")), task, u).execute();
  }

  private TaskType taskType(Handle h, Task task) {
    return h.createQuery(sql.get("taskTypeGet")).bind("name", task.type()).map(rows.taskType).findOne()
        .orElseThrow(() -> new DroverException("task " + task.id() + " has no task type " + task.type()));
  }

  private static <S extends SqlStatement<S>> S bindUpdate(S statement, Task task, TaskUpdate u) {
    return statement
        .bind("id", task.id())
        .bind("status", u.status().dbName())
        .bind("next_run", u.nextRun())
        .bind("current_interval_ms", Columns.millis(u.currentInterval()))
        .bind("retries_left", u.retriesLeft());
  }
}
