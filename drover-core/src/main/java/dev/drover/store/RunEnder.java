package dev.drover.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.internal.Json;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.Rescheduler;
import dev.drover.schedule.TaskUpdate;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * Ends a run and reschedules its task, inside the caller's transaction. Every way a run ends
 * (reported, completed by its owner, rescued) goes through here, so the rules are applied once.
 */
final class RunEnder {
  private final SqlFiles sql;
  private final Rows rows;
  private final VisitOutcomes visits;

  RunEnder(SqlFiles sql, Rows rows, VisitOutcomes visits) {
    this.sql = sql;
    this.rows = rows;
    this.visits = visits;
  }

  /** A batch for the visit runs one transaction ends; ingest it last in the transaction. */
  VisitOutcomes.Batch visitBatch() {
    return visits.batch();
  }

  /** A run to end with {@code status}: the run, and its task as read in this transaction. */
  record Ending(TaskRun run, Task task, TaskRunStatus status, ObjectNode metadata) {}

  /** Ends {@code run} and reschedules its task by the rules; {@code run} must not be a visit run ending as a visit. */
  TaskRun end(Handle h, TaskRun run, TaskRunStatus status, ObjectNode metadata, Instant at) {
    return end(h, run, status, metadata, at, null);
  }

  /** Ends {@code run}, reschedules its task by the rules, and adds its visit, if any, to {@code visitBatch}. */
  TaskRun end(Handle h, TaskRun run, TaskRunStatus status, ObjectNode metadata, Instant at,
      VisitOutcomes.Batch visitBatch) {
    TaskRun ended = close(h, run, status, metadata, at);
    Task task = h.createQuery(sql.get("taskGet")).bindList("ids", List.of(run.taskId())).map(rows.task).one();
    reschedule(h, task, status, at);
    if (visitBatch != null) {
      visitBatch.add(task, ended, status, at);
    }
    return ended;
  }

  /**
   * Ends many runs and reschedules their tasks by the rules, as {@link #end} does one by one, but
   * in two JDBC batches (one round trip each on PostgreSQL) and reading each task type once. The
   * visits among them are ingested last.
   */
  void endAll(Handle h, List<Ending> endings, Instant at) {
    if (endings.isEmpty()) {
      return;
    }
    Map<String, TaskType> types = new HashMap<>();
    VisitOutcomes.Batch visitBatch = visits.batch();
    PreparedBatch runs = h.prepareBatch(sql.get("taskRunEndMany"));
    PreparedBatch tasks = h.prepareBatch(sql.get("taskUpdateAfterRun"));
    for (Ending e : endings) {
      ObjectNode metadata = Json.merge(e.run().metadata(), e.metadata());
      runs.bind("id", e.run().id())
          .bind("ended", at)
          .bind("status", e.status().dbName())
          .bind("metadata", Json.canonical(metadata))
          .add();
      TaskType type = types.computeIfAbsent(e.task().type(), name -> taskType(h, e.task()));
      bindUpdate(tasks, e.task(), Rescheduler.afterRun(e.task(), type, e.status(), at)).add();
      TaskRun r = e.run();
      visitBatch.add(e.task(), new TaskRun(r.id(), r.taskId(), r.backendId(), r.scheduled(), r.started(), at,
          metadata, e.status()), e.status(), at);
    }
    runs.execute();
    tasks.execute();
    visitBatch.ingest(h);
  }

  /** Ends {@code run} with its metadata merged, leaving its task as it is. */
  TaskRun close(Handle h, TaskRun run, TaskRunStatus status, ObjectNode metadata, Instant at) {
    return h.createQuery(sql.get("taskRunEnd"))
        .bind("id", run.id())
        .bind("ended", at)
        .bind("status", status.dbName())
        .bind("metadata", Json.canonical(Json.merge(run.metadata(), metadata)))
        .map(rows.taskRun).one();
  }

  void reschedule(Handle h, Task task, TaskRunStatus status, Instant at) {
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
