package dev.drover.store;

import static dev.drover.store.SqlQuery.ORIGIN_RECORD;
import static dev.drover.store.SqlQuery.ORIGIN_ROWS_ESTIMATE;
import static dev.drover.store.SqlQuery.ORIGIN_STATS_MOVED;
import static dev.drover.store.SqlQuery.ORIGIN_STATS_REPLACE;
import static dev.drover.store.SqlQuery.ORIGIN_STATS_UPSERT;
import static dev.drover.store.SqlQuery.TASK_CANCEL;
import static dev.drover.store.SqlQuery.TASK_COUNT_MOVED;
import static dev.drover.store.SqlQuery.TASK_LEASED_AMONG;
import static dev.drover.store.SqlQuery.TASK_RUN_END_MANY;
import static dev.drover.store.SqlQuery.TASK_RUN_INSERT_STARTED;
import static dev.drover.store.SqlQuery.TASK_UPDATE_AFTER_RUN;
import static dev.drover.store.SqlQuery.TASK_UPDATE_AFTER_RUN_AS_CLAIMED;
import static dev.drover.store.SqlQuery.VISIT_MARK_SCHEDULED;
import static dev.drover.store.SqlQuery.VISIT_STATS_REPLACE;
import static dev.drover.store.SqlQuery.VISIT_STATS_UPSERT;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.drover.Json;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskStatus;
import dev.drover.schedule.TaskUpdate;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.Query;

/**
 * SQLite's side of {@link DialectSql}. SQLite runs in process, so a batch is a prepared statement
 * per row in one JDBC batch (no round trips to save), and its one writer with IMMEDIATE
 * transactions makes writers take turns without locks. Instants are INTEGER milliseconds.
 */
final class SqliteSql implements DialectSql {
  /** One row's parameters in taskInsertMany.sql's column order. */
  private static final String TASK_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private final SqlFiles sql;
  private final SqliteBatch.Factory batches;
  private final SqliteWriteGate gate;

  /**
   * @param statements the store's statement cache, or null if it has none
   * @param probe sees the statements run as plain JDBC batches (Jdbi's are seen by its hooks)
   */
  SqliteSql(SqlFiles sql, SqliteStatementCache statements, StoreProbe probe, SqliteWriteGate gate) {
    this.sql = sql;
    this.gate = gate;
    this.batches = new SqliteBatch.Factory(sql, statements, probe);
  }

  @Override
  public Dialect dialect() {
    return Dialect.SQLITE;
  }

  @Override
  public SqlFiles files() {
    return sql;
  }

  @Override
  public int instantSqlType() {
    return Types.BIGINT;
  }

  @Override
  public Object instantValue(Instant t) {
    return t.toEpochMilli();
  }

  @Override
  public Instant instant(ResultSet rs, String column) throws SQLException {
    long ms = rs.getLong(column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(ms);
  }

  /** Nothing to bind: the caller announces the work (see {@link WorkSignal}). */
  @Override
  public boolean bindInsertSignal(Query insert) {
    return false;
  }

  /** One ten-parameter row per task. */
  @Override
  public String taskInsertText(String file, int rows) {
    return file.replace("<values>", String.join(", ", Collections.nCopies(rows, TASK_ROW)));
  }

  @Override
  public void bindTaskInsert(PreparedStatement insert, List<TaskInserts.NewTaskRow> rows)
      throws SQLException {
    int i = 1;
    for (TaskInserts.NewTaskRow r : rows) {
      insert.setString(i++, r.type());
      insert.setString(i++, r.arguments());
      insert.setString(i++, r.argumentsHash());
      insert.setObject(i++, Columns.bindable(this, r.nextRun()));
      if (r.currentIntervalMs() == null) {
        insert.setNull(i++, Types.BIGINT);
      } else {
        insert.setLong(i++, r.currentIntervalMs());
      }
      insert.setString(i++, r.status());
      insert.setString(i++, r.policy());
      insert.setInt(i++, r.retriesLeft());
      insert.setString(i++, r.priority());
      insert.setString(i++, r.concurrencyKey());
    }
  }

  @Override
  public void bindDuplicateLookup(Query lookup, List<String> types, List<String> hashes) {
    lookup
        .bind("types", jsonTexts(types)) // read with json_each
        .bind("hashes", jsonTexts(hashes))
        .bind("status", TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName());
  }

  /** {@code texts} as one JSON array of strings. */
  static String jsonTexts(List<String> texts) {
    ArrayNode array = Json.array();
    texts.forEach(array::add);
    return Json.canonical(array);
  }

  /**
   * In a transaction begun and ended by plain statements on a connection left in auto-commit mode.
   * JDBC's way costs four: sqlite-jdbc runs BEGIN when auto-commit goes off, COMMIT then BEGIN
   * again on commit, and COMMIT once more when auto-commit comes back on. IMMEDIATE, as the pool's
   * transactions, so the reads happen under the write lock and see what the write will see.
   */
  @Override
  public <T> T inSingleWrite(Jdbi jdbi, HandleCallback<T, RuntimeException> work) {
    return jdbi.withHandle(h -> gate.through(h, w -> inStatementTransaction(w, work)));
  }

  private static <T> T inStatementTransaction(Handle h, HandleCallback<T, RuntimeException> work) {
    h.execute("BEGIN IMMEDIATE");
    T result;
    try {
      result = work.withHandle(h);
      h.execute("COMMIT");
    } catch (RuntimeException | Error e) {
      try {
        h.execute("ROLLBACK");
      } catch (RuntimeException rollback) {
        e.addSuppressed(rollback);
      }
      throw e;
    }
    return result;
  }

  @Override
  public void bindIds(Query query, String name, List<Long> ids) {
    StringBuilder json = new StringBuilder(ids.size() * 8).append('[');
    for (int i = 0; i < ids.size(); i++) {
      json.append(i == 0 ? "" : ",").append(ids.get(i).longValue());
    }
    query.bind(name, json.append(']').toString()); // read with json_each
  }

  /**
   * One fenced update for the whole batch, its rows as one JSON array (the pass's hot path; see the
   * SQL file for why not one per row).
   */
  @Override
  public boolean[] updateAsClaimed(
      Handle h, String owner, List<Completion> completions, List<TaskUpdate> updates) {
    StringBuilder rows = new StringBuilder(completions.size() * 80).append('[');
    for (int i = 0; i < completions.size(); i++) {
      Task task = completions.get(i).claimed().task();
      TaskUpdate u = updates.get(i);
      rows.append(i == 0 ? "[" : ",[").append(task.id());
      // A status's stored spelling is lower-case letters and underscores: no JSON escaping.
      rows.append(",\"").append(u.status().dbName()).append('"');
      appendNumber(rows, Columns.millis(u.nextRun()));
      appendNumber(rows, Columns.millis(u.currentInterval()));
      appendNumber(rows, u.retriesLeft());
      appendNumber(rows, completions.get(i).lease().attempt());
      appendNumber(rows, Columns.millis(task.nextRun()));
      appendNumber(rows, Columns.millis(task.currentInterval()));
      appendNumber(rows, task.retriesLeft());
      rows.append(']');
    }
    try (SqliteBatch update = batches.open(h, TASK_UPDATE_AFTER_RUN_AS_CLAIMED)) {
      StatusMoves moves = new StatusMoves();
      List<Long> ids =
          update
              .setString("rows", rows.append(']').toString())
              .setString("owner", owner)
              .executeReturningAll(
                  (rs, ctx) -> {
                    moves.givenBack(rs.getString(2), rs.getString(3));
                    return rs.getLong(1);
                  });
      countMoves(h, moves);
      return DialectSql.updatedAmong(completions, ids);
    }
  }

  /** Appends {@code ,value} to a JSON array being built: a number, or null. */
  private static void appendNumber(StringBuilder json, Number value) {
    json.append(',').append(value == null ? "null" : value.toString());
  }

  /** One run per row in a JDBC batch, bound with plain JDBC (the pass's hot path). */
  @Override
  public void endRuns(
      Handle h, String owner, List<RunEnder.Ending> endings, List<String> metadata, Instant at) {
    try (SqliteBatch runs = batches.open(h, TASK_RUN_END_MANY)) {
      for (int i = 0; i < endings.size(); i++) {
        RunEnder.Ending e = endings.get(i);
        runs.setLong("task", e.run().taskId())
            .setString("backend_id", e.run().backendId())
            .setInstant("scheduled", e.run().scheduled())
            .setInstant("started", e.started())
            .setInstant("ended", at)
            .setString("metadata", metadata.get(i))
            .setString("status", e.status().dbName())
            .setString("owner", owner)
            .setLong("attempt", e.attempt())
            .add();
      }
      runs.execute();
    }
  }

  /** One insert per run in a JDBC batch, bound with plain JDBC (the pass's hot path). */
  @Override
  public void insertStarted(Handle h, String owner, List<RunStarted> started) {
    try (SqliteBatch batch = batches.open(h, TASK_RUN_INSERT_STARTED)) {
      for (RunStarted s : started) {
        TaskRun run = s.claim().run();
        batch
            .setLong("task", run.taskId())
            .setString("backend_id", run.backendId())
            .setInstant("scheduled", run.scheduled())
            .setInstant("started", s.at())
            .setString("metadata", Json.canonical(run.metadata()))
            .setString("owner", owner)
            .setLong("attempt", s.claim().lease().attempt())
            .add();
      }
      batch.execute();
    }
  }

  /** Nothing to lock: one writer, and a run's foreign key refuses a task that is gone. */
  @Override
  public void lockTasksForDeletion(Handle h, List<Long> ids) {}

  /** Nothing to lock: one writer, and every transaction begins IMMEDIATE. */
  @Override
  public void lockVisitTypes(Handle h, List<String> visitTypes, VisitTypeLocks.Mode mode) {}

  @Override
  public void lockListers(Handle h, Collection<UUID> listers) {}

  /**
   * A prepared statement per origin, returning its stored row; then the stats rows that new rows
   * took their stats from are deleted, one batch.
   */
  @Override
  public List<ListedOrigin> recordOrigins(
      Handle h, List<ListedOrigin> origins, Instant now, FrontierRows rows) {
    List<ListedOrigin> recorded = new ArrayList<>(origins.size());
    Map<String, Instant> bounds = FrontierRows.defaultCooldownBounds(now);
    // A stored row that took stats: a stats row always has an offset, and a row without stats has
    // none (V029).
    RowMapper<Map.Entry<ListedOrigin, Boolean>> stored =
        (rs, ctx) ->
            Map.entry(rows.listedOrigin.map(rs, ctx), rs.getObject("next_position_offset") != null);
    try (SqliteBatch record = batches.open(h, ORIGIN_RECORD);
        SqliteBatch moved = batches.open(h, ORIGIN_STATS_MOVED)) {
      for (ListedOrigin o : origins) {
        bounds.forEach(record::setInstant);
        Map.Entry<ListedOrigin, Boolean> row =
            record
                .setString("lister_id", FrontierRows.text(o.listerId()))
                .setString("url", o.url())
                .setString("visit_type", o.visitType())
                .setString("extra_loader_arguments", Json.canonical(o.extraLoaderArguments()))
                .setBoolean("enabled", o.enabled())
                .setInstant("now", now)
                .setInstant("last_update", o.lastUpdate())
                .setBoolean("is_fork", o.isFork())
                .setString("forked_from_url", o.forkedFromUrl())
                .executeReturning(stored);
        recorded.add(row.getKey());
        // Only a row inserted now can have moved a stats row; most new origins have no stats.
        if (row.getValue() && row.getKey().firstSeen().toEpochMilli() == now.toEpochMilli()) {
          moved.setString("url", o.url()).setString("visit_type", o.visitType()).add();
        }
      }
      moved.execute();
    }
    return recorded;
  }

  @Override
  public boolean claimIndexKeepsClaimedEntries() {
    return false;
  }

  /** One upsert of the moves' sums, the pairs as one JSON array. */
  @Override
  public void countMoves(Handle h, StatusMoves moves) {
    Map<List<String>, Long> sums = moves.nonZero();
    if (sums.isEmpty()) {
      return;
    }
    ArrayNode pairs = Json.MAPPER.createArrayNode();
    sums.forEach((k, n) -> pairs.addArray().add(k.get(0)).add(k.get(1)).add(n));
    h.createUpdate(sql.get(TASK_COUNT_MOVED)).bind("moves", pairs.toString()).execute();
  }

  /**
   * The release returns the task's type, and its move from leased to waiting is counted: the row
   * trigger leaves a leased task's owner taken away to the statement (V027).
   */
  @Override
  public boolean giveBack(Handle h, Query release) {
    Optional<String> type = release.map((rs, ctx) -> rs.getString("type")).findOne();
    type.ifPresent(
        t ->
            countMoves(
                h, new StatusMoves().givenBack(t, TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName())));
    return type.isPresent();
  }

  /**
   * The leased tasks among {@code ids} are read first, and their moves to disabled counted: the row
   * trigger counts the others' (V027). One writer, so nothing changes them in between.
   */
  @Override
  public List<Long> cancel(Handle h, List<Long> ids) {
    Map<Long, String> leased = leasedAmong(h, ids);
    List<Long> cancelled =
        h.createQuery(sql.get(TASK_CANCEL)).bindList("ids", ids).mapTo(Long.class).list();
    StatusMoves moves = new StatusMoves();
    for (Long id : cancelled) {
      String type = leased.get(id);
      if (type != null) {
        moves.givenBack(type, TaskStatus.DISABLED.dbName());
      }
    }
    countMoves(h, moves);
    return cancelled;
  }

  /**
   * The leased tasks among {@code tasks} are read first; each update returns the status it wrote,
   * and the leased tasks' moves are counted: the row trigger counts the others' (V027).
   */
  @Override
  public void updateAfterRun(Handle h, List<Task> tasks, List<TaskUpdate> updates) {
    Map<Long, String> leased = new HashMap<>();
    for (List<Task> chunk : FrontierRows.chunks(tasks, FrontierRows.IN_LIST)) {
      leased.putAll(leasedAmong(h, chunk.stream().map(Task::id).toList()));
    }
    StatusMoves moves = new StatusMoves();
    try (SqliteBatch update = batches.open(h, TASK_UPDATE_AFTER_RUN)) {
      for (int i = 0; i < tasks.size(); i++) {
        Task task = tasks.get(i);
        TaskUpdate u = updates.get(i);
        List<String> written =
            update
                .setLong("id", task.id())
                .setString("status", u.status().dbName())
                .setInstant("next_run", u.nextRun())
                .setLong("current_interval_ms", Columns.millis(u.currentInterval()))
                .setLong("retries_left", u.retriesLeft())
                .executeReturningAll((rs, ctx) -> rs.getString(1));
        String type = leased.get(task.id());
        if (type != null && !written.isEmpty()) {
          moves.givenBack(type, written.get(0));
        }
      }
    }
    countMoves(h, moves);
  }

  /** The type of each task among {@code ids} that is leased and has its owner. */
  private Map<Long, String> leasedAmong(Handle h, List<Long> ids) {
    return h.createQuery(sql.get(TASK_LEASED_AMONG))
        .bindList("ids", ids)
        .map((rs, ctx) -> Map.entry(rs.getLong("id"), rs.getString("type")))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /** One statement per chunk of urls. */
  @Override
  public void markScheduled(Handle h, String visitType, List<String> urls, Instant now) {
    for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
      h.createUpdate(sql.get(VISIT_MARK_SCHEDULED))
          .bind("visit_type", visitType)
          .bindList("urls", chunk)
          .bind("now", now)
          .execute();
    }
  }

  @Override
  public void upsertStats(Handle h, List<OriginVisitStats> stats) {
    writeStats(h, ORIGIN_STATS_UPSERT, VISIT_STATS_UPSERT, stats);
  }

  @Override
  public void replaceStats(Handle h, List<OriginVisitStats> stats) {
    writeStats(h, ORIGIN_STATS_REPLACE, VISIT_STATS_REPLACE, stats);
  }

  /**
   * SQLite has no TABLESAMPLE: blocks of rowids instead of pages (see {@link RowidBlockSample}).
   */
  @Override
  public void bindSample(Query grab, double percent) {
    long highestRowid =
        grab.getHandle().createQuery(sql.get(ORIGIN_ROWS_ESTIMATE)).mapTo(Long.class).one();
    grab.bind(
            "sample_blocks",
            RowidBlockSample.blocks(highestRowid, percent, ThreadLocalRandom.current()))
        .bind("sample_block_rows", RowidBlockSample.BLOCK_ROWS);
  }

  /** SQLite's plan rows name their parent node; a node is indented one step past its parent. */
  @Override
  public List<String> plan(Handle h, String query, UnaryOperator<Query> bind) {
    Map<Integer, Integer> depth = new HashMap<>();
    return bind.apply(h.createQuery("EXPLAIN QUERY PLAN " + query))
        .map(
            (rs, ctx) -> {
              int d = depth.getOrDefault(rs.getInt("parent"), -1) + 1;
              depth.put(rs.getInt("id"), d);
              return "  ".repeat(d) + rs.getString("detail");
            })
        .list();
  }

  /**
   * A prepared statement per row for the listed rows of its url, then one per row for the urls no
   * lister lists (V029: a key's stats are in one place).
   */
  private void writeStats(
      Handle h, SqlQuery listedQuery, SqlQuery unlistedQuery, List<OriginVisitStats> stats) {
    if (stats.isEmpty()) {
      return;
    }
    Map<String, Instant> bounds = FrontierRows.defaultCooldownBounds(Instant.now());
    try (SqliteBatch listed = batches.open(h, listedQuery);
        SqliteBatch unlisted = batches.open(h, unlistedQuery)) {
      for (OriginVisitStats s : stats) {
        bindStats(listed, s);
        bounds.forEach(listed::setInstant);
        listed.add();
        bindStats(unlisted, s);
        unlisted.add();
      }
      listed.execute();
      unlisted.execute();
    }
  }

  private static void bindStats(SqliteBatch batch, OriginVisitStats s) {
    batch
        .setString("url", s.url())
        .setString("visit_type", s.visitType())
        .setInstant("last_successful", s.lastSuccessful())
        .setInstant("last_visit", s.lastVisit())
        .setString(
            "last_visit_status", s.lastVisitStatus() == null ? null : s.lastVisitStatus().dbName())
        .setInstant("last_scheduled", s.lastScheduled())
        .setString("last_snapshot", s.lastSnapshot())
        .setLong("next_visit_queue_position", s.nextVisitQueuePosition())
        .setLong("next_position_offset", s.nextPositionOffset())
        .setLong("successive_visits", s.successiveVisits());
  }
}
