package dev.drover.store;

import static dev.drover.store.SqlQuery.TASK_FIND_DUPLICATES;
import static dev.drover.store.SqlQuery.TASK_INSERT_CLAIMED;
import static dev.drover.store.SqlQuery.TASK_INSERT_MANY;
import static dev.drover.store.SqlQuery.TASK_INSERT_UNLESS_DUPLICATE;
import static dev.drover.store.SqlQuery.TASK_TYPE_GET;
import static dev.drover.store.SqlQuery.TASK_TYPE_VERSION;

import dev.drover.ValidationException;
import dev.drover.engine.command.CommandTemplate;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Creates a batch of tasks in a few statements per chunk instead of two per task: every task is
 * validated before anything is written, the stored duplicates of a whole chunk are read in one
 * query, and the chunk's new tasks are inserted in one multi-row statement.
 *
 * <p>The inserted rows are matched back to their inputs by their duplicate key, which is unique
 * among the new rows of a batch, so nothing depends on the order in which RETURNING reports them.
 *
 * <p>A single task, the common case of an application enqueueing as work arrives, takes a shorter
 * path: one fixed statement inserts it unless a duplicate is stored (and on PostgreSQL sends the
 * work signal too), with its type as this process last read it: the statement checks the type row's
 * version, so once the type is known the call costs that statement and the commit. Its text is
 * fixed, unlike the multi-row insert's, so PostgreSQL's driver keeps it prepared on the server.
 *
 * <p>Either path announces the new work inside the transaction ({@link WorkSignal#announce}); the
 * caller wakes this process's runners after the commit.
 */
final class TaskInserts {
  /** Rows per statement: 10 parameters a row stays well below either database's parameter limit. */
  static final int CHUNK = 500;

  /** Tasks a bulk create hands to {@link #create} at once: a few statements' worth. */
  static final int BULK_CHUNK = 5_000;

  /** Tries of the single-task path before it gives up on a duplicate that keeps vanishing. */
  private static final int SINGLE_TRIES = 3;

  private final DialectSql dialect;
  private final SqlFiles sql;
  private final Rows rows;
  private final WorkSignal work;
  private final ParsedTaskTypes parsedTypes;

  TaskInserts(DialectSql dialect, Rows rows, ParsedTaskTypes parsedTypes, WorkSignal work) {
    this.dialect = dialect;
    this.sql = dialect.files();
    this.rows = rows;
    this.work = work;
    this.parsedTypes = parsedTypes;
  }

  /**
   * Returns one task per input, in input order; a duplicate maps to the task it duplicates. Other
   * processes are told of the work when the transaction commits.
   */
  List<Task> create(Handle h, List<NewTask> tasks, Instant now) {
    return create(h, tasks, now, null);
  }

  /**
   * As {@link #create(Handle, List, Instant)}; a single task is created claimed on an offer of
   * {@code claim} when the claim's rules allow (see {@link CreateClaimer}). {@code claim} may be
   * null.
   */
  List<Task> create(Handle h, List<NewTask> tasks, Instant now, ClaimOnCreate claim) {
    if (tasks.size() == 1) {
      return List.of(createSingle(h, tasks.get(0), now, claim));
    }
    List<Task> created = createMany(h, validate(h, tasks, now));
    if (!created.isEmpty()) {
      work.announce(h);
    }
    return created;
  }

  /**
   * Creates one task with its type as this process last read it, if it did: the insert checks the
   * type's version, so it costs one statement. If the type changed since (the insert wrote nothing
   * and the version moved), or the type as known rejects the task, the type is read again and the
   * create tried again with it.
   */
  private Task createSingle(Handle h, NewTask task, Instant now, ClaimOnCreate claim) {
    boolean known = true;
    for (int tries = 0; tries < SINGLE_TRIES; tries++) {
      Prepared p;
      try {
        p = validate(h, List.of(task), now, known).get(0);
      } catch (ValidationException e) {
        if (!known) {
          throw e;
        }
        known = false; // the type as known may be out of date: only the stored one may reject
        continue;
      }
      try {
        Task claimed = claim == null ? null : createClaimed(h, p, now, claim);
        return claimed != null ? claimed : createOne(h, p);
      } catch (TypeChanged e) {
        known = false;
      }
    }
    throw new IllegalStateException(
        "task of type '" + task.type() + "': its type kept changing while the task was created");
  }

  /** The insert wrote nothing because the task's type changed since it was read. */
  private static final class TypeChanged extends RuntimeException {
    TypeChanged() {
      super(null, null, false, false); // control flow: no stack trace
    }
  }

  /**
   * Inserts {@code p} unless a duplicate is stored, then reads the duplicate. The read can miss
   * only if another transaction changed the duplicate in between (PostgreSQL, read committed), and
   * then the insert is tried again. Throws {@link TypeChanged} if the insert wrote nothing because
   * the type's version moved.
   */
  private Task createOne(Handle h, Prepared p) {
    for (int tries = 0; tries < SINGLE_TRIES; tries++) {
      Query insert = h.createQuery(sql.get(TASK_INSERT_UNLESS_DUPLICATE));
      boolean statementSignals = dialect.bindInsertSignal(insert);
      Optional<Task> inserted =
          insert
              .bind("type", p.task.type())
              .bind("arguments", p.json)
              .bind("hash", p.hash)
              .bind("nextRun", p.nextRun)
              .bind("intervalMs", Columns.millis(p.interval))
              .bind("status", TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName())
              .bind("policy", p.task.policy().dbName())
              .bind("retriesLeft", retriesLeft(p))
              .bind("priority", priority(p))
              .bind("concurrencyKey", p.concurrencyKey)
              .bind("typeVersion", p.typeVersion)
              // the rest of the task is what was written, as the batch path reads it
              .map((rs, ctx) -> written(rs.getLong("id"), p))
              .findOne();
      if (inserted.isPresent()) {
        // Where the statement itself queued the NOTIFY, it is sent; elsewhere the signal decides.
        if (!statementSignals) {
          work.announce(h);
        }
        return inserted.get();
      }
      Task stored = findStored(h, List.of(p)).get(p.key);
      if (stored != null) {
        work.announce(h);
        return stored;
      }
      if (typeChanged(h, p)) {
        throw new TypeChanged();
      }
    }
    throw new IllegalStateException(
        "task of type '"
            + p.task.type()
            + "': a stored duplicate kept changing while it was being created; try again");
  }

  /**
   * Creates {@code p} already claimed on an offer of a runner of this process, if one has a worker
   * slot free for it and the claim's rules allow; null otherwise, with nothing written. The task is
   * returned as claimed: its next run is the end of the lease.
   */
  private Task createClaimed(Handle h, Prepared p, Instant now, ClaimOnCreate claim) {
    claim.claimed(null); // this transaction may be a second try of the same create
    if (p.nextRun.isAfter(now) || p.type.maxPerKey() != null) {
      return null;
    }
    CreateClaimer.Offer offer = claim.offer(p.task.type(), now);
    if (offer == null) {
      return null;
    }
    Optional<Long> id =
        h.createQuery(sql.get(TASK_INSERT_CLAIMED))
            .bind("type", p.task.type())
            .bind("arguments", p.json)
            .bind("hash", p.hash)
            .bind("nextRun", p.nextRun)
            .bind("leaseUntil", offer.leaseUntil())
            .bind("now", now)
            .bind("intervalMs", Columns.millis(p.interval))
            .bind("policy", p.task.policy().dbName())
            .bind("retriesLeft", retriesLeft(p))
            .bind("priority", priority(p))
            .bind("concurrencyKey", p.concurrencyKey)
            .bind("owner", offer.owner())
            .bind("typeVersion", p.typeVersion)
            .mapTo(Long.class)
            .findOne();
    if (id.isEmpty()) {
      return null;
    }
    Task task = written(id.get(), p, offer.leaseUntil(), TaskStatus.NEXT_RUN_SCHEDULED);
    TaskRun run = Claim.openedRun(task.id(), 1, now, Claim.openedBy(offer.owner()));
    claim.claimed(new Claim(task, run, new Lease(task.id(), 1)));
    return task;
  }

  private List<Task> createMany(Handle h, List<Prepared> prepared) {
    Map<Key, Prepared> unique = new LinkedHashMap<>();
    for (Prepared p : prepared) {
      unique.putIfAbsent(p.key, p);
    }
    List<Prepared> distinct = new ArrayList<>(unique.values());
    Map<Key, Task> resolved = new HashMap<>();
    // by row count: a full chunk's statement is prepared once per call, not once per chunk (with
    // 5,000 parameters, compiling it cost a fifth of SQLite's time)
    Map<Integer, PreparedStatement> statements = new HashMap<>();
    try {
      for (int from = 0; from < distinct.size(); from += CHUNK) {
        List<Prepared> chunk = distinct.subList(from, Math.min(from + CHUNK, distinct.size()));
        resolved.putAll(findStored(h, chunk));
        List<Prepared> fresh = chunk.stream().filter(p -> !resolved.containsKey(p.key)).toList();
        resolved.putAll(insert(h, fresh, statements));
      }
    } finally {
      close(statements.values());
    }
    return prepared.stream().map(p -> resolved.get(p.key)).toList();
  }

  /** Whether the type of {@code p} is no longer stored at the version it was prepared with. */
  private boolean typeChanged(Handle h, Prepared p) {
    Optional<Long> stored =
        h.createQuery(sql.get(TASK_TYPE_VERSION))
            .bind("name", p.type.name())
            .mapTo(Long.class)
            .findOne();
    return stored.isEmpty() || stored.get() != p.typeVersion;
  }

  /**
   * Checks {@code tasks} against their types as stored and works out how each is stored, failing on
   * the first bad one in input order with a {@link ValidationException} naming the field; nothing
   * is written.
   */
  List<Prepared> validate(Handle h, List<NewTask> tasks, Instant now) {
    return validate(h, tasks, now, false);
  }

  /**
   * As {@link #validate(Handle, List, Instant)}; with {@code known}, a type this process has read
   * before is taken as it was then, for an insert that checks its version.
   */
  private List<Prepared> validate(Handle h, List<NewTask> tasks, Instant now, boolean known) {
    Map<String, ParsedTaskTypes.Known> byName = new HashMap<>();
    Map<String, CommandTemplate> templates = new HashMap<>();
    List<Prepared> out = new ArrayList<>(tasks.size());
    for (NewTask t : tasks) {
      ParsedTaskTypes.Known typeKnown =
          byName.computeIfAbsent(
              t.type(),
              name ->
                  (known ? parsedTypes.known(name) : Optional.<ParsedTaskTypes.Known>empty())
                      .or(
                          () ->
                              h.createQuery(sql.get(TASK_TYPE_GET))
                                  .bind("name", name)
                                  .map(parsedTypes::mapKnown)
                                  .findOne())
                      .orElseThrow(
                          () ->
                              new ValidationException("type", "unknown task type '" + name + "'")));
      TaskType type = typeKnown.type();
      if (t.policy() == TaskPolicy.RECURRING && !type.recurs()) {
        throw new ValidationException(
            "policy",
            "task type '"
                + type.name()
                + "' has neither a default_interval nor a cron, so its tasks can only be oneshot");
      }
      String concurrencyKey = type.concurrencyKeyOf(t.arguments());
      if (type.command() != null) {
        templates
            .computeIfAbsent(type.name(), n -> CommandTemplate.parse(type.command()))
            .checkFills(type.name(), t.arguments());
      }
      Instant nextRun = Columns.toMillis(firstRun(t, type, now));
      String json = t.arguments().toJson();
      String hash = TaskArguments.hashOf(json);
      out.add(
          new Prepared(
              t,
              type,
              nextRun,
              interval(t, type, nextRun),
              concurrencyKey,
              json,
              hash,
              Key.of(t.type(), hash, t.policy(), t.priority(), nextRun),
              typeKnown.version()));
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
    Query lookup = h.createQuery(sql.get(TASK_FIND_DUPLICATES));
    dialect.bindDuplicateLookup(lookup, List.copyOf(types), List.copyOf(hashes));
    lookup
        .map((rs, ctx) -> new Hashed(rs.getString("arguments_hash"), rows.task.map(rs, ctx)))
        .forEach(
            row -> {
              Key key =
                  Key.of(
                      row.task.type(),
                      row.hash,
                      row.task.policy(),
                      row.task.priority(),
                      row.task.nextRun());
              if (wanted.contains(key)) {
                found.merge(key, row.task, (a, b) -> a.id() <= b.id() ? a : b);
              }
            });
    return found;
  }

  /**
   * Inserts {@code fresh}, whose keys are distinct, in one statement. It goes through plain JDBC
   * rather than Jdbi's binding (which parsed the 5,000-parameter text and looked up an argument
   * factory for every value, a third of a bulk add's time), and reads back only the ids and the key
   * columns: the rest of each task is what was written.
   */
  private Map<Key, Task> insert(
      Handle h, List<Prepared> fresh, Map<Integer, PreparedStatement> statements) {
    Map<Key, Task> inserted = new HashMap<>();
    if (fresh.isEmpty()) {
      return inserted;
    }
    try {
      PreparedStatement statement = statements.get(fresh.size());
      if (statement == null) {
        String text = dialect.taskInsertText(sql.get(TASK_INSERT_MANY), fresh.size());
        statement = h.getConnection().prepareStatement(text);
        statements.put(fresh.size(), statement);
      }
      insert(statement, fresh, inserted);
    } catch (SQLException e) {
      // as Jdbi reports a failed statement, so callers see one kind of failure either way
      throw new UnableToExecuteStatementException(e, null);
    }
    if (inserted.size() != fresh.size()) {
      throw new IllegalStateException(
          "inserted " + fresh.size() + " tasks but read back " + inserted.size());
    }
    return inserted;
  }

  private void insert(PreparedStatement insert, List<Prepared> fresh, Map<Key, Task> inserted)
      throws SQLException {
    Map<Key, Prepared> byKey = new HashMap<>();
    fresh.forEach(p -> byKey.put(p.key, p));
    dialect.bindTaskInsert(insert, fresh.stream().map(TaskInserts::row).toList());
    try (ResultSet rs = insert.executeQuery()) {
      while (rs.next()) {
        String priority = rs.getString("priority");
        Key key =
            Key.of(
                rs.getString("type"),
                rs.getString("arguments_hash"),
                TaskPolicy.parse("policy", rs.getString("policy")),
                priority == null ? null : TaskPriority.parse("priority", priority),
                dialect.instant(rs, "next_run"));
        Prepared p = byKey.get(key);
        if (p == null) {
          throw new IllegalStateException("inserted a task that matches no input: " + key);
        }
        inserted.put(key, written(rs.getLong("id"), p));
      }
    }
  }

  private static void close(Iterable<PreparedStatement> statements) {
    for (PreparedStatement statement : statements) {
      try {
        statement.close();
      } catch (SQLException e) {
        // closing cannot lose data; the connection finalizes it at the latest
      }
    }
  }

  private static NewTaskRow row(Prepared p) {
    return new NewTaskRow(
        p.task.type(),
        p.json,
        p.hash,
        p.nextRun,
        Columns.millis(p.interval),
        TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName(),
        p.task.policy().dbName(),
        retriesLeft(p),
        priority(p),
        p.concurrencyKey);
  }

  /** The task {@code p} became, as the row holds it (see taskInsertMany.sql for the columns). */
  private static Task written(long id, Prepared p) {
    return written(id, p, p.nextRun, TaskStatus.NEXT_RUN_NOT_SCHEDULED);
  }

  private static Task written(long id, Prepared p, Instant nextRun, TaskStatus status) {
    Long intervalMs = Columns.millis(p.interval);
    return new Task(
        id,
        p.task.type(),
        p.task.arguments(),
        nextRun,
        intervalMs == null ? null : Duration.ofMillis(intervalMs),
        status,
        p.task.policy(),
        retriesLeft(p),
        p.task.priority());
  }

  /**
   * When a task first comes due if it names no time: at once, except a recurring task of a cron
   * type, which waits for the cron's next fire time (as db-scheduler's recurring tasks do).
   */
  private static Instant firstRun(NewTask t, TaskType type, Instant now) {
    if (t.nextRun() != null) {
      return t.nextRun();
    }
    return type.cron() != null && t.policy() == TaskPolicy.RECURRING
        ? type.cron().nextFireAfter(now)
        : now;
  }

  /**
   * The interval a task starts with: the type's default, or for a recurring task of a cron type the
   * time between its first two fire times, kept for information (and as the interval to adapt from
   * should its type trade the cron for intervals).
   */
  private static Duration interval(NewTask t, TaskType type, Instant nextRun) {
    if (type.cron() != null && t.policy() == TaskPolicy.RECURRING) {
      return type.cron().periodAfter(nextRun.minusMillis(1));
    }
    return type.defaultInterval();
  }

  static int retriesLeft(Prepared p) {
    return p.task.retriesLeft() == null ? p.type.numRetries() : p.task.retriesLeft();
  }

  static String priority(Prepared p) {
    return p.task.priority() == null ? null : p.task.priority().dbName();
  }

  /** A task checked against its type, as it is to be stored. */
  record Prepared(
      NewTask task,
      TaskType type,
      Instant nextRun,
      Duration interval,
      String concurrencyKey,
      String json,
      String hash,
      Key key,
      long typeVersion) {}

  /** The values of one new task's row, in taskInsertMany's column order; nullable where boxed. */
  record NewTaskRow(
      String type,
      String arguments,
      String argumentsHash,
      Instant nextRun,
      Long currentIntervalMs,
      String status,
      String policy,
      int retriesLeft,
      String priority,
      String concurrencyKey) {}

  private record Hashed(String hash, Task task) {}

  /**
   * The fields that make two tasks the same task: next_run only matters for one-shot tasks, and the
   * arguments are compared by their hash, as the stored lookup always has.
   */
  private record Key(
      String type, String hash, TaskPolicy policy, TaskPriority priority, Instant nextRun) {
    static Key of(
        String type, String hash, TaskPolicy policy, TaskPriority priority, Instant nextRun) {
      return new Key(type, hash, policy, priority, policy == TaskPolicy.ONESHOT ? nextRun : null);
    }
  }
}
