package dev.drover.store;

import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * Creates a batch of tasks in a few statements per chunk instead of two per task: every task is
 * validated before anything is written, the stored duplicates of a whole chunk are read in one
 * query, and the chunk's new tasks are inserted in one multi-row statement.
 *
 * <p>The inserted rows are matched back to their inputs by their duplicate key, which is unique
 * among the new rows of a batch, so nothing depends on the order in which RETURNING reports them.
 */
final class TaskInserts {
  /** Rows per statement: 10 parameters a row stays well below either database's parameter limit. */
  static final int CHUNK = 500;

  private final SqlFiles sql;
  private final Rows rows;

  TaskInserts(SqlFiles sql, Rows rows) {
    this.sql = sql;
    this.rows = rows;
  }

  /** Returns one task per input, in input order; a duplicate maps to the task it duplicates. */
  List<Task> create(Handle h, List<NewTask> tasks, Instant now) {
    List<Prepared> prepared = validate(h, tasks, now);
    Map<Key, Prepared> unique = new LinkedHashMap<>();
    for (Prepared p : prepared) {
      unique.putIfAbsent(p.key, p);
    }
    List<Prepared> distinct = new ArrayList<>(unique.values());
    Map<Key, Task> resolved = new HashMap<>();
    for (int from = 0; from < distinct.size(); from += CHUNK) {
      List<Prepared> chunk = distinct.subList(from, Math.min(from + CHUNK, distinct.size()));
      resolved.putAll(findStored(h, chunk));
      List<Prepared> fresh = chunk.stream().filter(p -> !resolved.containsKey(p.key)).toList();
      resolved.putAll(insert(h, fresh));
    }
    return prepared.stream().map(p -> resolved.get(p.key)).toList();
  }

  /** Checks every task before any is written, failing on the first bad one in input order. */
  private List<Prepared> validate(Handle h, List<NewTask> tasks, Instant now) {
    Map<String, TaskType> types = new HashMap<>();
    List<Prepared> out = new ArrayList<>(tasks.size());
    for (NewTask t : tasks) {
      TaskType type = types.computeIfAbsent(t.type(), name -> h.createQuery(sql.get("taskTypeGet"))
          .bind("name", name).map(rows.taskType).findOne()
          .orElseThrow(() -> new ValidationException("type", "unknown task type '" + name + "'")));
      if (t.policy() == TaskPolicy.RECURRING && type.defaultInterval() == null) {
        throw new ValidationException("policy", "task type '" + type.name()
            + "' has no default_interval, so its tasks can only be oneshot");
      }
      String concurrencyKey = type.concurrencyKeyOf(t.arguments());
      Instant nextRun = Instant.ofEpochMilli((t.nextRun() == null ? now : t.nextRun()).toEpochMilli());
      String hash = t.arguments().hash();
      out.add(new Prepared(t, type, nextRun, concurrencyKey, hash, Key.of(t.type(), hash, t.policy(), t.priority(), nextRun)));
    }
    return out;
  }

  /** The oldest stored duplicate of each task in {@code chunk} that has one. */
  private Map<Key, Task> findStored(Handle h, List<Prepared> chunk) {
    Set<String> types = new LinkedHashSet<>();
    Set<String> hashes = new LinkedHashSet<>();
    for (Prepared p : chunk) {
      types.add(p.task.type());
      hashes.add(p.hash);
    }
    Set<Key> wanted = new HashSet<>();
    chunk.forEach(p -> wanted.add(p.key));
    Map<Key, Task> found = new HashMap<>();
    h.createQuery(sql.get("taskFindDuplicates"))
        .bindList("types", new ArrayList<>(types))
        .bindList("hashes", new ArrayList<>(hashes))
        .bind("status", TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName())
        .map((rs, ctx) -> new Hashed(rs.getString("arguments_hash"), rows.task.map(rs, ctx)))
        .forEach(row -> {
          Key key = Key.of(row.task.type(), row.hash, row.task.policy(), row.task.priority(), row.task.nextRun());
          if (wanted.contains(key)) {
            found.merge(key, row.task, (a, b) -> a.id() <= b.id() ? a : b);
          }
        });
    return found;
  }

  /** Inserts {@code fresh}, whose keys are distinct, in one statement. */
  private Map<Key, Task> insert(Handle h, List<Prepared> fresh) {
    Map<Key, Task> inserted = new HashMap<>();
    if (fresh.isEmpty()) {
      return inserted;
    }
    StringJoiner values = new StringJoiner(", ");
    for (int i = 0; i < fresh.size(); i++) {
      values.add("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }
    Query query = h.createQuery(sql.get("taskInsertMany").replace("<values>", values.toString()));
    int i = 0;
    for (Prepared p : fresh) {
      NewTask t = p.task;
      query.bind(i++, t.type())
          .bind(i++, t.arguments().toJson())
          .bind(i++, p.hash)
          .bind(i++, p.nextRun)
          .bind(i++, Columns.millis(p.type.defaultInterval()))
          .bind(i++, TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName())
          .bind(i++, t.policy().dbName())
          .bind(i++, t.retriesLeft() == null ? p.type.numRetries() : t.retriesLeft())
          .bind(i++, t.priority() == null ? null : t.priority().dbName())
          .bind(i++, p.concurrencyKey);
    }
    query.map((rs, ctx) -> new Hashed(rs.getString("arguments_hash"), rows.task.map(rs, ctx)))
        .forEach(row -> inserted.put(
            Key.of(row.task.type(), row.hash, row.task.policy(), row.task.priority(), row.task.nextRun()), row.task));
    if (inserted.size() != fresh.size()) {
      throw new IllegalStateException("inserted " + fresh.size() + " tasks but read back " + inserted.size());
    }
    return inserted;
  }

  private record Prepared(NewTask task, TaskType type, Instant nextRun, String concurrencyKey, String hash, Key key) {}

  private record Hashed(String hash, Task task) {}

  /**
   * The fields that make two tasks the same task: next_run only matters for one-shot tasks, and the
   * arguments are compared by their hash, as the stored lookup always has.
   */
  private record Key(String type, String hash, TaskPolicy policy, TaskPriority priority, Instant nextRun) {
    static Key of(String type, String hash, TaskPolicy policy, TaskPriority priority, Instant nextRun) {
      return new Key(type, hash, policy, priority, policy == TaskPolicy.ONESHOT ? nextRun : null);
    }
  }
}
