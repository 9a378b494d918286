package dev.drover.store;

import static dev.drover.store.SqlQuery.TASK_ADOPT;
import static dev.drover.store.SqlQuery.TASK_INSERT_CHILD;
import static dev.drover.store.SqlQuery.TASK_LAST_CHILD;
import static dev.drover.store.SqlQuery.TASK_SPAWNED;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Writes the children a run spawned, inside the pass transaction that ends the run, after the end
 * is written and fenced: a completion whose lease was lost is not ended, so it spawns nothing, and
 * a parent that spawned waits (it is not due again) so it cannot spawn the same children twice.
 * Only a successful run (eventful or uneventful) spawns; a failed attempt's children are dropped
 * with it, and the retry spawns its own.
 *
 * <p>Spawns are checked before anything is written ({@link #vet}): an invalid child (an unknown
 * type, a recurring child of a type that cannot recur, a command placeholder it does not fill)
 * turns its parent's run into a failure naming the problem, so that one bad spawn neither breaks
 * the pass nor creates half a family.
 */
final class Children {
  private final SqlFiles sql;
  private final TaskInserts inserts;
  private final WorkSignal work;

  Children(SqlFiles sql, TaskInserts inserts, WorkSignal work) {
    this.sql = sql;
    this.inserts = inserts;
    this.work = work;
  }

  /** True if {@code c} is to spawn children once its end is written. */
  static boolean spawns(Completion c) {
    return !c.spawns().isEmpty()
        && (c.status() == TaskRunStatus.EVENTFUL || c.status() == TaskRunStatus.UNEVENTFUL);
  }

  /**
   * {@code completions}, where one that would spawn an invalid child is replaced by a failure
   * naming the child and its problem, spawning nothing.
   */
  List<Completion> vet(Handle h, List<Completion> completions, Instant now) {
    List<Completion> out = new ArrayList<>(completions.size());
    for (Completion c : completions) {
      if (!spawns(c)) {
        out.add(c);
        continue;
      }
      try {
        inserts.validate(h, c.spawns(), now);
        out.add(c);
      } catch (ValidationException e) {
        ObjectNode meta = c.metadata().deepCopy();
        ObjectNode result =
            meta.get("result") instanceof ObjectNode r ? r : meta.putObject("result");
        result.put("error", "spawn: " + e.getMessage());
        out.add(
            new Completion(
                c.lease(), TaskRunStatus.FAILED, meta, c.started(), c.claimed(), List.of()));
      }
    }
    return out;
  }

  /**
   * Creates the children of {@code parentId} and makes it wait for them. Call it only for a run
   * whose end this transaction wrote.
   */
  void write(Handle h, long parentId, List<NewTask> spawns, Instant now) {
    long[] spawned =
        h.createQuery(sql.get(TASK_SPAWNED))
            .bind("id", parentId)
            .bind("n", spawns.size())
            .map(
                (rs, ctx) ->
                    new long[] {rs.getLong("root"), rs.getBoolean("paused_while_running") ? 1 : 0})
            .one();
    TaskStatus status = spawned[1] == 1 ? TaskStatus.PAUSED : TaskStatus.NEXT_RUN_NOT_SCHEDULED;
    insert(h, parentId, spawned[0], status, spawns, now);
  }

  /**
   * An operator's tasks added under {@code parentId} (see taskAdopt.sql for which parents take
   * them). Returns the id of the parent's newest child before them (its new children come after
   * it), or empty if the parent takes none.
   */
  OptionalLong adopt(Handle h, long parentId, List<NewTask> tasks, Instant now) {
    Optional<Long> root =
        h.createQuery(sql.get(TASK_ADOPT))
            .bind("id", parentId)
            .bind("n", tasks.size())
            .mapTo(Long.class)
            .findOne();
    if (root.isEmpty()) {
      return OptionalLong.empty();
    }
    long last =
        h.createQuery(sql.get(TASK_LAST_CHILD)).bind("parent", parentId).mapTo(Long.class).one();
    insert(h, parentId, root.get(), TaskStatus.NEXT_RUN_NOT_SCHEDULED, tasks, now);
    return OptionalLong.of(last);
  }

  private void insert(
      Handle h, long parentId, long root, TaskStatus status, List<NewTask> spawns, Instant now) {
    PreparedBatch batch = h.prepareBatch(sql.get(TASK_INSERT_CHILD));
    for (TaskInserts.Prepared p : inserts.validate(h, spawns, now)) {
      batch
          .bind("type", p.task().type())
          .bind("arguments", p.task().arguments().toJson())
          .bind("hash", p.hash())
          .bind("next_run", p.nextRun())
          .bind("interval_ms", Columns.millis(p.interval()))
          .bind("status", status.dbName())
          .bind("policy", p.task().policy().dbName())
          .bind("retries_left", TaskInserts.retriesLeft(p))
          .bind("priority", TaskInserts.priority(p))
          .bind("concurrency_key", p.concurrencyKey())
          .bind("parent", parentId)
          .bind("root", root)
          .add();
    }
    batch.execute();
    work.announce(h);
  }
}
