package dev.drover.store;

import static dev.drover.store.SqlQuery.TASK_CHILDREN_SETTLED;
import static dev.drover.store.SqlQuery.TASK_PARENTS_OF;
import static dev.drover.store.SqlQuery.TASK_SEAL;
import static dev.drover.store.SqlQuery.TASK_TYPE_GET;

import dev.drover.model.ChildrenRule;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * A child's end reaching its parent, in the transaction that made the child final: the run-end hook
 * of workflows, also called by the operator's cancel and delete, which make children final without
 * ending a run. Each parent gets one counter update per transaction (however many of its children
 * ended in it), never a scan of its siblings; the update that brings its pending count to zero
 * seals it by its type's {@link ChildrenRule}, and a sealed parent that is itself a child is
 * counted against its own parent in turn, up to the root.
 *
 * <p>A child counts once: it is final only in a final status (done, or disabled: failed for good or
 * by an operator), and only a waiting parent is counted (see {@code taskChildrenSettled.sql}). On
 * PostgreSQL the counter update locks the parent's row until commit, so two passes ending siblings
 * at once serialize on it and neither count is lost; on SQLite the single writer does.
 */
final class ChildEnds implements RunEndHook {
  private final DialectSql dialect;
  private final SqlFiles sql;
  private final Rows rows;

  ChildEnds(DialectSql dialect, Rows rows) {
    this.dialect = dialect;
    this.sql = dialect.files();
    this.rows = rows;
  }

  @Override
  public void ended(Handle h, List<EndedRun> runs, Instant at) {
    settle(h, runs.stream().map(r -> r.task().id()).distinct().toList());
  }

  /** Counts those of {@code taskIds} that are final children against their parents. */
  void settle(Handle h, List<Long> taskIds) {
    Map<String, ChildrenRule> rules = new HashMap<>();
    List<Long> ids = taskIds;
    while (!ids.isEmpty()) {
      ids = settleOnce(h, ids, rules);
    }
  }

  /** One level up: returns the parents this step sealed, to be counted against theirs. */
  private List<Long> settleOnce(Handle h, List<Long> ids, Map<String, ChildrenRule> rules) {
    // Per parent, in id order (so that transactions lock parents in one order): settled, failed.
    Map<Long, int[]> byParent = new TreeMap<>();
    Query parents = h.createQuery(sql.get(TASK_PARENTS_OF));
    dialect.bindIds(parents, "ids", ids); // one parameter: one text for any count of ids
    parents
        .map(
            (rs, ctx) -> {
              TaskStatus s = TaskStatus.parse("status", rs.getString("status"));
              if (s == TaskStatus.COMPLETED || s == TaskStatus.DISABLED) {
                int[] n = byParent.computeIfAbsent(rs.getLong("parent"), k -> new int[2]);
                n[0]++;
                n[1] += s == TaskStatus.DISABLED ? 1 : 0;
              }
              return s;
            })
        .list();
    List<Long> sealed = new ArrayList<>();
    for (Map.Entry<Long, int[]> e : byParent.entrySet()) {
      h.createQuery(sql.get(TASK_CHILDREN_SETTLED))
          .bind("id", e.getKey())
          .bind("settled", e.getValue()[0])
          .bind("failed", e.getValue()[1])
          .map(
              (rs, ctx) ->
                  new Counted(
                      rs.getLong("id"),
                      rs.getString("type"),
                      TaskPolicy.parse("policy", rs.getString("policy")),
                      rs.getInt("children_pending"),
                      rs.getInt("children_total"),
                      rs.getInt("children_failed")))
          .findOne()
          .filter(c -> c.pending() == 0)
          .ifPresent(
              c -> {
                if (seal(h, c, rules.computeIfAbsent(c.type(), t -> rule(h, t)))) {
                  sealed.add(c.id());
                }
              });
    }
    return sealed;
  }

  private boolean seal(Handle h, Counted c, ChildrenRule rule) {
    TaskStatus status;
    if (c.policy() == TaskPolicy.RECURRING) {
      status = TaskStatus.NEXT_RUN_NOT_SCHEDULED;
    } else {
      status = rule.succeeded(c.total(), c.failed()) ? TaskStatus.COMPLETED : TaskStatus.DISABLED;
    }
    return h.createUpdate(sql.get(TASK_SEAL))
            .bind("id", c.id())
            .bind("status", status.dbName())
            .execute()
        == 1;
  }

  private ChildrenRule rule(Handle h, String type) {
    return h.createQuery(sql.get(TASK_TYPE_GET))
        .bind("name", type)
        .map(rows.taskType)
        .findOne()
        .map(TaskType::childrenRule)
        .orElse(ChildrenRule.ALL_SUCCEEDED);
  }

  private record Counted(
      long id, String type, TaskPolicy policy, int pending, int total, int failed) {}
}
