package dev.drover.store;

import static dev.drover.store.SqlQuery.TASK_CHILD_IDS;
import static dev.drover.store.SqlQuery.TASK_CHILD_REOPENED;
import static dev.drover.store.SqlQuery.TASK_DELETE;
import static dev.drover.store.SqlQuery.TASK_FINAL_CHILDREN;
import static dev.drover.store.SqlQuery.TASK_GET;
import static dev.drover.store.SqlQuery.TASK_PAUSE;
import static dev.drover.store.SqlQuery.TASK_PAUSE_RUNNING;
import static dev.drover.store.SqlQuery.TASK_RESUME;
import static dev.drover.store.SqlQuery.TASK_RETRY;
import static dev.drover.store.SqlQuery.TASK_RUNS_OF_TASKS;
import static dev.drover.store.SqlQuery.TASK_RUN_DELETE_OF_TASKS;
import static dev.drover.store.SqlQuery.TASK_RUN_OPEN_OF_TASKS;
import static dev.drover.store.SqlQuery.TASK_TYPE_SET_PAUSED;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * An operator's hand on tasks and trees: pause, resume, cancel, retry and delete, each one
 * transaction. A tree is a task and every task below it, found by walking down the parent index one
 * level at a time (any task, not only a root, heads a tree).
 *
 * <p>Cancel and delete race with runners as {@code task disable} does: the task row is written
 * first (locked on PostgreSQL before its runs are read), its lease is taken away, so the runner
 * executing it finds the lease lost at its next heartbeat and stops the work, and its late result
 * is fenced out. The run is ended {@code cancelled}, nothing charged. A cancelled child counts as
 * failed for its waiting parent, in the same transaction ({@link ChildEnds}).
 */
final class TaskControls {
  private static final int CHUNK = 1000;
  private final Jdbi jdbi;
  private final DialectSql dialect;
  private final SqlFiles sql;
  private final Rows rows;
  private final RunEnder runEnder;
  private final ChildEnds childEnds;

  TaskControls(Jdbi jdbi, DialectSql dialect, Rows rows, RunEnder runEnder, ChildEnds childEnds) {
    this.jdbi = jdbi;
    this.dialect = dialect;
    this.sql = dialect.files();
    this.rows = rows;
    this.runEnder = runEnder;
    this.childEnds = childEnds;
  }

  /**
   * Pauses the waiting tasks of the scope; running ones are marked so that they finish their run
   * and are paused then, and the children their run spawns are created paused (a crawl paused as it
   * runs spawns paused snapshots). Returns how many tasks it paused or marked.
   */
  int pause(List<Long> ids, boolean tree) {
    return jdbi.inTransaction(
        h -> {
          List<Long> scope = scope(h, ids, tree);
          return markRunning(h, scope, true) + update(h, TASK_PAUSE, scope);
        });
  }

  int resume(List<Long> ids, boolean tree) {
    return jdbi.inTransaction(
        h -> {
          List<Long> scope = scope(h, ids, tree);
          return markRunning(h, scope, false) + update(h, TASK_RESUME, scope);
        });
  }

  private int markRunning(Handle h, List<Long> scope, boolean paused) {
    int marked = 0;
    for (List<Long> chunk : chunks(scope)) {
      marked +=
          h.createUpdate(sql.get(TASK_PAUSE_RUNNING))
              .bindList("ids", chunk)
              .bind("paused", paused)
              .execute();
    }
    return marked;
  }

  boolean typePause(String name, boolean paused) {
    return jdbi.inTransaction(
        h ->
            h.createUpdate(sql.get(TASK_TYPE_SET_PAUSED))
                    .bind("name", name)
                    .bind("paused", paused)
                    .execute()
                == 1);
  }

  int cancel(List<Long> ids, boolean tree, Instant now) {
    return jdbi.inTransaction(h -> cancel(h, scope(h, ids, tree), now).size());
  }

  /**
   * Retries tasks now (not a tree: a retried parent spawns its children again). A final child of a
   * parent still waiting is counted pending again.
   */
  int retry(List<Long> ids, Instant now) {
    return jdbi.inTransaction(
        h -> {
          List<Long> sorted = new ArrayList<>(new TreeSet<>(ids));
          Map<Long, long[]> finalChildren = new HashMap<>(); // id -> parent, failed
          for (List<Long> chunk : chunks(sorted)) {
            h.createQuery(sql.get(TASK_FINAL_CHILDREN))
                .bindList("ids", chunk)
                .map(
                    (rs, ctx) ->
                        finalChildren.put(
                            rs.getLong("id"),
                            new long[] {
                              rs.getLong("parent"),
                              TaskStatus.DISABLED.dbName().equals(rs.getString("status")) ? 1 : 0
                            }))
                .list();
          }
          int retried = 0;
          for (List<Long> chunk : chunks(sorted)) {
            List<Long> done =
                h.createQuery(sql.get(TASK_RETRY))
                    .bindList("ids", chunk)
                    .bind("now", now)
                    .map((rs, ctx) -> rs.getLong("id"))
                    .list();
            retried += done.size();
            for (long id : done) {
              long[] child = finalChildren.get(id);
              if (child != null) {
                h.createUpdate(sql.get(TASK_CHILD_REOPENED))
                    .bind("id", child[0])
                    .bind("failed", (int) child[1])
                    .execute();
              }
            }
          }
          return retried;
        });
  }

  Store.TaskDeletion delete(List<Long> ids, boolean tree, Instant now) {
    return jdbi.inTransaction(
        h -> {
          List<Long> scope = scope(h, ids, tree);
          for (List<Long> chunk : chunks(scope)) {
            dialect.lockTasksForDeletion(h, chunk);
          }
          cancel(h, scope, now);
          List<Store.DeletedRun> runs = new ArrayList<>();
          int tasks = 0;
          for (List<Long> chunk : chunks(scope)) {
            runs.addAll(
                h.createQuery(sql.get(TASK_RUNS_OF_TASKS))
                    .bindList("ids", chunk)
                    .map(
                        (rs, ctx) ->
                            new Store.DeletedRun(rs.getString("type"), rs.getString("backend_id")))
                    .list());
            h.createUpdate(sql.get(TASK_RUN_DELETE_OF_TASKS)).bindList("ids", chunk).execute();
            tasks += h.createUpdate(sql.get(TASK_DELETE)).bindList("ids", chunk).execute();
          }
          return new Store.TaskDeletion(tasks, runs);
        });
  }

  /** Cancels the tasks of {@code scope} that are not final; returns their ids. */
  private List<Long> cancel(Handle h, List<Long> scope, Instant now) {
    List<Long> cancelled = new ArrayList<>();
    for (List<Long> chunk : chunks(scope)) {
      cancelled.addAll(dialect.cancel(h, chunk));
    }
    List<EndedRun> ended = new ArrayList<>();
    Set<Long> withRun = new HashSet<>();
    ObjectNode meta = Json.object();
    meta.put("cancelled", true);
    for (List<Long> chunk : chunks(cancelled)) {
      List<TaskRun> open =
          h.createQuery(sql.get(TASK_RUN_OPEN_OF_TASKS))
              .bindList("ids", chunk)
              .map(rows.taskRun)
              .list();
      if (open.isEmpty()) {
        continue;
      }
      Map<Long, Task> tasks = new HashMap<>();
      h.createQuery(sql.get(TASK_GET))
          .bindList("ids", open.stream().map(TaskRun::taskId).distinct().toList())
          .map(rows.task)
          .forEach(t -> tasks.put(t.id(), t));
      for (TaskRun r : open) {
        runEnder.close(h, tasks.get(r.taskId()), r, TaskRunStatus.CANCELLED, meta, now, ended);
        withRun.add(r.taskId());
      }
    }
    // Tasks with a run ended here reach their parents through the run-end hooks; the others now.
    childEnds.settle(h, cancelled.stream().filter(id -> !withRun.contains(id)).toList());
    runEnder.runHooks(h, ended, now);
    return cancelled;
  }

  /** {@code ids}, and with {@code tree} every task below them; distinct, in id order. */
  private List<Long> scope(Handle h, List<Long> ids, boolean tree) {
    TreeSet<Long> all = new TreeSet<>(ids);
    List<Long> level = new ArrayList<>(all);
    while (tree && !level.isEmpty()) {
      List<Long> next = new ArrayList<>();
      for (List<Long> chunk : chunks(level)) {
        h.createQuery(sql.get(TASK_CHILD_IDS))
            .bindList("ids", chunk)
            .mapTo(Long.class)
            .forEach(
                id -> {
                  if (all.add(id)) {
                    next.add(id);
                  }
                });
      }
      level = next;
    }
    return new ArrayList<>(all);
  }

  private int update(Handle h, SqlQuery query, List<Long> ids) {
    return sum(ids, chunk -> h.createUpdate(sql.get(query)).bindList("ids", chunk).execute());
  }

  private static int sum(List<Long> ids, Function<List<Long>, Integer> each) {
    int n = 0;
    for (List<Long> chunk : chunks(ids)) {
      n += each.apply(chunk);
    }
    return n;
  }

  private static List<List<Long>> chunks(List<Long> ids) {
    List<List<Long>> out = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += CHUNK) {
      out.add(ids.subList(from, Math.min(from + CHUNK, ids.size())));
    }
    return out;
  }
}
