package dev.drover.store;

import static dev.drover.store.SqlQuery.TASK_GET;
import static dev.drover.store.SqlQuery.TASK_RUN_DELETE_SUCCEEDED;
import static dev.drover.store.SqlQuery.TASK_RUN_END;
import static dev.drover.store.SqlQuery.TASK_TYPE_GET;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.Rescheduler;
import dev.drover.schedule.TaskUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Ends a run and reschedules its task, inside the caller's transaction. Every way a run ends
 * (reported, completed by its owner, rescued, released) goes through here, so the rules are applied
 * once. Each method adds the runs it ended to the caller's {@code ended} list; the caller hands
 * that list to {@link #runHooks} last in the transaction, so every {@link RunEndHook} sees the
 * transaction's ends in one batch, after every task row it locks.
 */
final class RunEnder {
  private final DialectSql dialect;
  private final SqlFiles sql;
  private final Rows rows;
  private final ParsedTaskTypes types;
  private final List<RunEndHook> hooks;

  RunEnder(DialectSql dialect, Rows rows, ParsedTaskTypes types, List<RunEndHook> hooks) {
    this.dialect = dialect;
    this.sql = dialect.files();
    this.rows = rows;
    this.types = types;
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
  record Ending(
      TaskRun run,
      Task task,
      int attempt,
      TaskRunStatus status,
      ObjectNode metadata,
      Instant started) {
    /**
     * Whether the run has a row as far as the runner knows: written by its claim or its start. When
     * not, it has one anyway if a start's commit went through but the runner never heard back.
     */
    boolean rowWritten() {
      return run.id() != 0 || started == null;
    }
  }

  /** Ends {@code run} and reschedules its task by the rules; adds it to {@code ended}. */
  TaskRun end(
      Handle h,
      TaskRun run,
      TaskRunStatus status,
      ObjectNode metadata,
      Instant at,
      List<EndedRun> ended) {
    TaskRun closed = closeRun(h, run, status, metadata, at);
    Task task =
        h.createQuery(sql.get(TASK_GET))
            .bindList("ids", List.of(run.taskId()))
            .map(rows.task)
            .one();
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
    List<Task> tasks = new ArrayList<>(endings.size());
    List<TaskUpdate> updates = new ArrayList<>(endings.size());
    for (Ending e : endings) {
      TaskType type = types.computeIfAbsent(e.task().type(), name -> taskType(h, e.task()));
      tasks.add(e.task());
      updates.add(Rescheduler.afterRun(e.task(), type, e.status(), at));
    }
    endRuns(h, owner, endings, types, at, ended);
    dialect.updateAfterRun(h, tasks, updates);
  }

  /**
   * Ends, as {@link #endAll} does, the runs of {@code completions} whose task {@code owner} still
   * holds and is still exactly as {@code Completion.claimed} shows it; the update is computed from
   * the claim, so no task is read. Returns the completions it could not end that way (the lease was
   * lost, or the row changed since the claim): the caller reads those and ends them, or not.
   */
  List<Completion> endAsClaimed(
      Handle h, String owner, List<Completion> completions, Instant at, List<EndedRun> ended) {
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
    boolean[] updated = dialect.updateAsClaimed(h, owner, completions, updates);
    List<Ending> endings = new ArrayList<>();
    List<Completion> left = new ArrayList<>();
    for (int i = 0; i < completions.size(); i++) {
      Completion c = completions.get(i);
      if (updated[i]) {
        endings.add(
            new Ending(
                c.claimed().run(),
                c.claimed().task(),
                c.lease().attempt(),
                c.status(),
                c.metadata(),
                c.started()));
      } else {
        left.add(c);
      }
    }
    endRuns(h, owner, endings, types, at, ended);
    return left;
  }

  /**
   * Writes the ends of {@code endings}' runs (whole, for queued runs never written) that their
   * type's {@link dev.drover.model.RunHistory} keeps, deletes the open runs of those it does not
   * keep, and adds them all to {@code ended}. {@code types} holds the type of every ending's task.
   */
  private void endRuns(
      Handle h,
      String owner,
      List<Ending> endings,
      Map<String, TaskType> types,
      Instant at,
      List<EndedRun> ended) {
    if (endings.isEmpty()) {
      return;
    }
    List<Ending> written = new ArrayList<>(endings.size());
    List<String> metadata = new ArrayList<>(endings.size());
    List<String> toDelete = new ArrayList<>();
    // Each text once: the runs of a pass often end with the same metadata (one worker, and a
    // result that does not vary), and writing it canonically was a tenth of the writes' own time.
    Map<ObjectNode, String> texts = new HashMap<>();
    for (Ending e : endings) {
      ObjectNode merged = Json.merge(e.run().metadata(), e.metadata());
      TaskRun r = e.run();
      Instant started = e.started() != null ? e.started() : r.started();
      boolean kept = types.get(e.task().type()).runHistory().keeps(e.status());
      ended.add(
          new EndedRun(
              e.task(),
              new TaskRun(
                  r.id(),
                  r.taskId(),
                  r.backendId(),
                  r.scheduled(),
                  started,
                  at,
                  merged,
                  e.status()),
              e.status(),
              kept));
      if (kept) {
        written.add(e);
        metadata.add(texts.computeIfAbsent(merged, Json::canonical));
      } else if (e.rowWritten()) {
        toDelete.add(r.backendId());
      }
    }
    if (!written.isEmpty()) {
      dialect.endRuns(h, owner, written, metadata, at);
    }
    if (!toDelete.isEmpty()) {
      h.createUpdate(sql.get(TASK_RUN_DELETE_SUCCEEDED))
          .bindList("backend_ids", toDelete)
          .execute();
    }
  }

  /**
   * Ends {@code run} with its metadata merged, leaving its task as it is (a release charges
   * nothing); adds it to {@code ended}.
   */
  TaskRun close(
      Handle h,
      Task task,
      TaskRun run,
      TaskRunStatus status,
      ObjectNode metadata,
      Instant at,
      List<EndedRun> ended) {
    TaskRun closed = closeRun(h, run, status, metadata, at);
    ended.add(new EndedRun(task, closed, status));
    return closed;
  }

  private TaskRun closeRun(
      Handle h, TaskRun run, TaskRunStatus status, ObjectNode metadata, Instant at) {
    return h.createQuery(sql.get(TASK_RUN_END))
        .bind("id", run.id())
        .bind("ended", at)
        .bind("status", status.dbName())
        .bind("metadata", Json.canonical(Json.merge(run.metadata(), metadata)))
        .map(rows.taskRun)
        .one();
  }

  private void reschedule(Handle h, Task task, TaskRunStatus status, Instant at) {
    dialect.updateAfterRun(
        h, List.of(task), List.of(Rescheduler.afterRun(task, taskType(h, task), status, at)));
  }

  private TaskType taskType(Handle h, Task task) {
    return h.createQuery(sql.get(TASK_TYPE_GET))
        .bind("name", task.type())
        .map(types::map)
        .findOne()
        .orElseThrow(
            () -> new DroverException("task " + task.id() + " has no task type " + task.type()));
  }
}
