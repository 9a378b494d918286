package dev.drover.store;

import static dev.drover.store.SqlQuery.FRONTIER_LOCK_LISTERS;
import static dev.drover.store.SqlQuery.FRONTIER_LOCK_STATS_SLOT;
import static dev.drover.store.SqlQuery.FRONTIER_LOCK_STATS_SLOTS;
import static dev.drover.store.SqlQuery.FRONTIER_LOCK_VISIT_TYPE;
import static dev.drover.store.SqlQuery.FRONTIER_LOCK_VISIT_TYPE_SHARED;
import static dev.drover.store.SqlQuery.ORIGIN_RECORD;
import static dev.drover.store.SqlQuery.ORIGIN_RECORD_WITHOUT_CONFLICT;
import static dev.drover.store.SqlQuery.TASK_CANCEL;
import static dev.drover.store.SqlQuery.TASK_COUNT_MOVED;
import static dev.drover.store.SqlQuery.TASK_LOCK_FOR_DELETION;
import static dev.drover.store.SqlQuery.TASK_RUN_END_MANY;
import static dev.drover.store.SqlQuery.TASK_RUN_INSERT_ENDED;
import static dev.drover.store.SqlQuery.TASK_RUN_INSERT_STARTED;
import static dev.drover.store.SqlQuery.TASK_UPDATE_AFTER_RUN;
import static dev.drover.store.SqlQuery.TASK_UPDATE_AFTER_RUN_AS_CLAIMED;
import static dev.drover.store.SqlQuery.TASK_UPDATE_PLANS_BY_KEY;
import static dev.drover.store.SqlQuery.VISIT_MARK_SCHEDULED;
import static dev.drover.store.SqlQuery.VISIT_STATS_REPLACE;
import static dev.drover.store.SqlQuery.VISIT_STATS_UPSERT;

import dev.drover.Json;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.schedule.TaskUpdate;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.jdbi.v3.core.statement.Update;

/**
 * PostgreSQL's side of {@link DialectSql}. Every statement is a round trip, so a batch is sent as
 * parallel arrays (times as epoch milliseconds) in one statement, whose cost does not grow with the
 * batch. Instants are timestamptz.
 */
final class PostgresSql implements DialectSql {
  /** The savepoint around the plain insert of the ends of runs never written. */
  private static final String UNWRITTEN_RUNS = "unwritten_runs";

  /**
   * The largest batch recorded without ON CONFLICT. That statement keeps the whole batch, and what
   * its lookup found for each origin, in the server's memory between its steps. A larger batch,
   * such as a whole file from {@code drover origin record}, takes the upsert, which streams it.
   */
  static final int RECORDING_WITHOUT_CONFLICT_LIMIT = 5_000;

  private final SqlFiles sql;

  PostgresSql(SqlFiles sql) {
    this.sql = sql;
  }

  @Override
  public Dialect dialect() {
    return Dialect.POSTGRESQL;
  }

  @Override
  public SqlFiles files() {
    return sql;
  }

  @Override
  public int instantSqlType() {
    return Types.TIMESTAMP_WITH_TIMEZONE;
  }

  @Override
  public Object instantValue(Instant t) {
    return OffsetDateTime.ofInstant(t, ZoneOffset.UTC);
  }

  @Override
  public Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  /** The statement sends the NOTIFY itself, so the insert and the signal are one round trip. */
  @Override
  public boolean bindInsertSignal(Query insert) {
    insert.bind("channel", WorkSignal.CHANNEL);
    return true;
  }

  /** The same text for any count: the chunk comes as ten arrays. */
  @Override
  public String taskInsertText(String file, int rows) {
    return file;
  }

  @Override
  public void bindTaskInsert(PreparedStatement insert, List<TaskInserts.NewTaskRow> rows)
      throws SQLException {
    Connection c = insert.getConnection();
    insert.setArray(1, array(c, "text", rows, TaskInserts.NewTaskRow::type));
    insert.setArray(2, array(c, "text", rows, TaskInserts.NewTaskRow::arguments));
    insert.setArray(3, array(c, "text", rows, TaskInserts.NewTaskRow::argumentsHash));
    insert.setArray(4, array(c, "bigint", rows, r -> r.nextRun().toEpochMilli()));
    insert.setArray(5, array(c, "bigint", rows, TaskInserts.NewTaskRow::currentIntervalMs));
    insert.setArray(6, array(c, "text", rows, TaskInserts.NewTaskRow::status));
    insert.setArray(7, array(c, "text", rows, TaskInserts.NewTaskRow::policy));
    insert.setArray(8, array(c, "integer", rows, TaskInserts.NewTaskRow::retriesLeft));
    insert.setArray(9, array(c, "text", rows, TaskInserts.NewTaskRow::priority));
    insert.setArray(10, array(c, "text", rows, TaskInserts.NewTaskRow::concurrencyKey));
  }

  /** One field of every row as a PostgreSQL array of {@code type}. */
  private static <R> Array array(Connection c, String type, List<R> rows, Function<R, ?> field)
      throws SQLException {
    return c.createArrayOf(type, column(rows, field).toArray());
  }

  @Override
  public void bindDuplicateLookup(Query lookup, List<String> types, List<String> hashes) {
    lookup
        .bind("types", PgArray.of(String.class, types))
        .bind("hashes", PgArray.of(String.class, hashes));
  }

  /**
   * Without a transaction: at read committed each statement reads its own snapshot anyway, and the
   * one write is atomic by itself (its NOTIFY is sent when it commits), so a transaction would add
   * only the commit's round trip.
   */
  @Override
  public <T> T inSingleWrite(Jdbi jdbi, HandleCallback<T, RuntimeException> work) {
    return jdbi.withHandle(work);
  }

  @Override
  public void bindIds(Query query, String name, List<Long> ids) {
    query.bind(name, PgArray.of(Long.class, ids)); // read with = ANY
  }

  /** The whole batch as arrays in one statement, which returns the ids it updated. */
  @Override
  public boolean[] updateAsClaimed(
      Handle h, String owner, List<Completion> completions, List<TaskUpdate> updates) {
    List<Task> tasks = completions.stream().map(c -> c.claimed().task()).toList();
    StatusMoves moves = new StatusMoves();
    // The plan the update keeps must find tasks by key however small the table was when it was
    // made: see the file.
    h.createQuery(sql.get(TASK_UPDATE_PLANS_BY_KEY)).mapToMap().one();
    List<Long> ids =
        h.createQuery(sql.get(TASK_UPDATE_AFTER_RUN_AS_CLAIMED))
            .bind("owner", owner)
            .bind("ids", PgArray.of(Long.class, tasks.stream().map(Task::id).toList()))
            .bind(
                "attempts",
                PgArray.of(
                    Integer.class, completions.stream().map(c -> c.lease().attempt()).toList()))
            .bind(
                "statuses",
                PgArray.of(String.class, updates.stream().map(u -> u.status().dbName()).toList()))
            .bind(
                "next_run_ms",
                PgArray.of(
                    Long.class, updates.stream().map(u -> Columns.millis(u.nextRun())).toList()))
            .bind(
                "current_interval_ms",
                PgArray.of(
                    Long.class,
                    updates.stream().map(u -> Columns.millis(u.currentInterval())).toList()))
            .bind(
                "retries_left",
                PgArray.of(Integer.class, updates.stream().map(TaskUpdate::retriesLeft).toList()))
            .bind(
                "claimed_next_run_ms",
                PgArray.of(
                    Long.class, tasks.stream().map(t -> Columns.millis(t.nextRun())).toList()))
            .bind(
                "claimed_interval_ms",
                PgArray.of(
                    Long.class,
                    tasks.stream().map(t -> Columns.millis(t.currentInterval())).toList()))
            .bind(
                "claimed_retries_left",
                PgArray.of(Integer.class, tasks.stream().map(Task::retriesLeft).toList()))
            .map(
                (rs, ctx) -> {
                  moves.givenBack(rs.getString("type"), rs.getString("status"));
                  return rs.getLong("id");
                })
            .list();
    countMoves(h, moves);
    return DialectSql.updatedAmong(completions, ids);
  }

  /** One append of the moves' sums, the pairs as parallel arrays. */
  @Override
  public void countMoves(Handle h, StatusMoves moves) {
    Map<List<String>, Long> sums = moves.nonZero();
    if (sums.isEmpty()) {
      return;
    }
    List<List<String>> keys = List.copyOf(sums.keySet());
    h.createUpdate(sql.get(TASK_COUNT_MOVED))
        .bind("types", PgArray.of(String.class, keys.stream().map(k -> k.get(0)).toList()))
        .bind("statuses", PgArray.of(String.class, keys.stream().map(k -> k.get(1)).toList()))
        .bind("ns", PgArray.of(Long.class, sums.values()))
        .execute();
  }

  /** The statement counts its change itself (V026). */
  @Override
  public boolean giveBack(Handle h, Query release) {
    return release.mapTo(Long.class).findOne().isPresent();
  }

  /** The statement counts the leased tasks' changes itself, the trigger the others' (V026). */
  @Override
  public List<Long> cancel(Handle h, List<Long> ids) {
    return h.createQuery(sql.get(TASK_CANCEL)).bindList("ids", ids).mapTo(Long.class).list();
  }

  /**
   * One JDBC batch; each statement counts a leased task's change itself, the trigger any other
   * (V026).
   */
  @Override
  public void updateAfterRun(Handle h, List<Task> tasks, List<TaskUpdate> updates) {
    PreparedBatch batch = h.prepareBatch(sql.get(TASK_UPDATE_AFTER_RUN));
    for (int i = 0; i < tasks.size(); i++) {
      TaskUpdate u = updates.get(i);
      batch
          .bind("id", tasks.get(i).id())
          .bind("status", u.status().dbName())
          .bind("next_run", u.nextRun())
          .bind("current_interval_ms", Columns.millis(u.currentInterval()))
          .bind("retries_left", u.retriesLeft())
          .add();
    }
    batch.execute();
  }

  /** All the pass's starts in one statement, the rows as arrays (see the SQL file). */
  @Override
  public void insertStarted(Handle h, String owner, List<RunStarted> started) {
    List<TaskRun> runs = started.stream().map(s -> s.claim().run()).toList();
    h.createUpdate(sql.get(TASK_RUN_INSERT_STARTED))
        .bind("owner", owner)
        .bind("tasks", PgArray.of(Long.class, runs.stream().map(TaskRun::taskId).toList()))
        .bind(
            "backend_ids", PgArray.of(String.class, runs.stream().map(TaskRun::backendId).toList()))
        .bind(
            "scheduled_ms",
            PgArray.of(Long.class, runs.stream().map(r -> Columns.millis(r.scheduled())).toList()))
        .bind(
            "started_ms",
            PgArray.of(Long.class, started.stream().map(s -> Columns.millis(s.at())).toList()))
        .bind(
            "metadata",
            PgArray.of(String.class, runs.stream().map(r -> Json.canonical(r.metadata())).toList()))
        .bind(
            "attempts",
            PgArray.of(
                Integer.class, started.stream().map(s -> s.claim().lease().attempt()).toList()))
        .execute();
  }

  /**
   * The ends of runs never written go in by a plain insert, the others by the upsert (see
   * taskRunInsertEnded.sql); if one of the former was written after all, they take the upsert too.
   */
  @Override
  public void endRuns(
      Handle h, String owner, List<RunEnder.Ending> endings, List<String> metadata, Instant at) {
    List<RunEnder.Ending> unwritten = new ArrayList<>();
    List<String> unwrittenMetadata = new ArrayList<>();
    List<RunEnder.Ending> written = new ArrayList<>();
    List<String> writtenMetadata = new ArrayList<>();
    for (int i = 0; i < endings.size(); i++) {
      boolean rowWritten = endings.get(i).rowWritten();
      (rowWritten ? written : unwritten).add(endings.get(i));
      (rowWritten ? writtenMetadata : unwrittenMetadata).add(metadata.get(i));
    }
    if (!unwritten.isEmpty() && !insertEnded(h, owner, unwritten, unwrittenMetadata, at)) {
      written.addAll(unwritten);
      writtenMetadata.addAll(unwrittenMetadata);
    }
    if (!written.isEmpty()) {
      bindEnds(h.createUpdate(sql.get(TASK_RUN_END_MANY)), owner, written, writtenMetadata, at)
          .execute();
    }
  }

  /**
   * Inserts the ends of runs the runner never wrote; false, with nothing inserted, if the database
   * holds one of them already (a start written by a commit the runner did not hear back from).
   */
  private boolean insertEnded(
      Handle h, String owner, List<RunEnder.Ending> endings, List<String> metadata, Instant at) {
    Update insert =
        bindEnds(h.createUpdate(sql.get(TASK_RUN_INSERT_ENDED)), owner, endings, metadata, at);
    return unlessAKeyIsTaken(h, UNWRITTEN_RUNS, insert::execute).isPresent();
  }

  /**
   * Runs {@code write} under {@code savepoint}: its result, or empty, with the savepoint rolled
   * back and so nothing of it written, if a unique index refused one of its rows. Any other failure
   * propagates.
   */
  private static <T> Optional<T> unlessAKeyIsTaken(Handle h, String savepoint, Supplier<T> write) {
    h.savepoint(savepoint);
    T result;
    try {
      result = write.get();
    } catch (UnableToExecuteStatementException e) {
      if (!SqlStates.causedBy(e, SqlStates.UNIQUE_VIOLATION)) {
        throw e;
      }
      h.rollbackToSavepoint(savepoint);
      return Optional.empty();
    }
    h.releaseSavepoint(savepoint);
    return Optional.of(result);
  }

  /** Binds the arrays of {@code taskRunEndMany} and {@code taskRunInsertEnded}. */
  private static Update bindEnds(
      Update update,
      String owner,
      List<RunEnder.Ending> endings,
      List<String> metadata,
      Instant at) {
    return update
        .bind("ended", at)
        .bind("owner", owner)
        .bind("tasks", PgArray.of(Long.class, endings.stream().map(e -> e.run().taskId()).toList()))
        .bind(
            "backend_ids",
            PgArray.of(String.class, endings.stream().map(e -> e.run().backendId()).toList()))
        .bind(
            "scheduled_ms",
            PgArray.of(
                Long.class,
                endings.stream().map(e -> Columns.millis(e.run().scheduled())).toList()))
        .bind(
            "started_ms",
            PgArray.of(Long.class, endings.stream().map(e -> Columns.millis(e.started())).toList()))
        .bind("metadata", PgArray.of(String.class, metadata))
        .bind(
            "statuses",
            PgArray.of(String.class, endings.stream().map(e -> e.status().dbName()).toList()))
        .bind(
            "attempts",
            PgArray.of(Integer.class, endings.stream().map(RunEnder.Ending::attempt).toList()));
  }

  /** FOR UPDATE: a statement writing a run holds its task locked until it commits. */
  @Override
  public void lockTasksForDeletion(Handle h, List<Long> ids) {
    h.createQuery(sql.get(TASK_LOCK_FOR_DELETION)).bindList("ids", ids).mapTo(Long.class).list();
  }

  /** A transaction-scoped advisory lock per visit type, in the order given. */
  @Override
  public void lockVisitTypes(Handle h, List<String> visitTypes, VisitTypeLocks.Mode mode) {
    for (String type : visitTypes) {
      if (mode == VisitTypeLocks.Mode.ALONE) {
        lockQuery(h, FRONTIER_LOCK_VISIT_TYPE, type);
        continue;
      }
      // The type's lock before its slots, as every holder takes them: no two wait in a circle.
      lockQuery(h, FRONTIER_LOCK_VISIT_TYPE_SHARED, type);
      lockQuery(
          h,
          mode == VisitTypeLocks.Mode.RECORDING
              ? FRONTIER_LOCK_STATS_SLOTS
              : FRONTIER_LOCK_STATS_SLOT,
          type);
    }
  }

  /** One advisory lock per lister, all in one statement. */
  @Override
  public void lockListers(Handle h, Collection<UUID> listers) {
    h.createQuery(sql.get(FRONTIER_LOCK_LISTERS))
        .bind(
            "lister_ids",
            PgArray.of(String.class, listers.stream().map(FrontierRows::text).toList()))
        .mapTo(Integer.class)
        .one();
  }

  private void lockQuery(Handle h, SqlQuery query, String visitType) {
    h.createQuery(sql.get(query)).bind("visit_type", visitType).mapTo(Integer.class).one();
  }

  /**
   * Without ON CONFLICT (originRecordWithoutConflict.sql), which costs less on both of its paths:
   * no other recording writes the batch's rows meanwhile (recordings of one lister take turns, see
   * {@link VisitTypeLocks}), so no key it inserts can be taken. A batch larger than {@link
   * #RECORDING_WITHOUT_CONFLICT_LIMIT} takes the upsert.
   */
  @Override
  public List<ListedOrigin> recordOrigins(
      Handle h, List<ListedOrigin> in, Instant now, FrontierRows rows) {
    SqlQuery query =
        in.size() > RECORDING_WITHOUT_CONFLICT_LIMIT
            ? ORIGIN_RECORD
            : ORIGIN_RECORD_WITHOUT_CONFLICT;
    ListedOrigin[] stored = new ListedOrigin[in.size()];
    Instant storedNow = Columns.toMillis(now);
    h.createQuery(sql.get(query))
        .bind(
            "lister_ids",
            PgArray.of(
                String.class, in.stream().map(o -> FrontierRows.text(o.listerId())).toList()))
        .bind("urls", PgArray.of(String.class, in.stream().map(ListedOrigin::url).toList()))
        .bind(
            "visit_types",
            PgArray.of(String.class, in.stream().map(ListedOrigin::visitType).toList()))
        .bind(
            "extra_loader_arguments",
            PgArray.of(
                String.class,
                in.stream().map(o -> Json.canonical(o.extraLoaderArguments())).toList()))
        .bind("enabled", PgArray.of(Boolean.class, in.stream().map(ListedOrigin::enabled).toList()))
        .bind(
            "last_update_ms",
            PgArray.of(Long.class, in.stream().map(o -> Columns.millis(o.lastUpdate())).toList()))
        .bind("is_fork", PgArray.of(Boolean.class, in.stream().map(ListedOrigin::isFork).toList()))
        .bind(
            "forked_from_urls",
            PgArray.of(String.class, in.stream().map(ListedOrigin::forkedFromUrl).toList()))
        .bind("now", now)
        .bindMap(FrontierRows.defaultCooldownBounds(now))
        .map(rows.recorded)
        .forEach(r -> stored[r.index()] = r.storedFor(in.get(r.index()), storedNow));
    for (int i = 0; i < stored.length; i++) {
      if (stored[i] == null) {
        throw new IllegalStateException("the recording returned no row for " + in.get(i).key());
      }
    }
    return List.of(stored);
  }

  @Override
  public boolean claimIndexKeepsClaimedEntries() {
    return true;
  }

  /** One statement, the urls as one array: a listed origin's stats are its listed rows (V028). */
  @Override
  public void markScheduled(Handle h, String visitType, List<String> urls, Instant now) {
    h.createUpdate(sql.get(VISIT_MARK_SCHEDULED))
        .bind("visit_type", visitType)
        .bind("urls", PgArray.of(String.class, urls))
        .bind("now", now)
        .execute();
  }

  @Override
  public void upsertStats(Handle h, List<OriginVisitStats> stats) {
    writeStats(h, VISIT_STATS_UPSERT, distinct(stats, PostgresSql::merge));
  }

  @Override
  public void replaceStats(Handle h, List<OriginVisitStats> stats) {
    writeStats(h, VISIT_STATS_REPLACE, distinct(stats, (earlier, later) -> later));
  }

  /** Samples whole pages ({@code TABLESAMPLE SYSTEM}), as the reference does. */
  @Override
  public void bindSample(Query grab, double percent) {
    grab.bind("sample_percent", percent);
  }

  @Override
  public List<String> plan(Handle h, String query, UnaryOperator<Query> bind) {
    return bind.apply(h.createQuery("EXPLAIN (ANALYZE, BUFFERS) " + query))
        .map((rs, ctx) -> rs.getString(1))
        .list();
  }

  /**
   * One statement cannot write a row twice, so a batch's stats of one key are folded first, as
   * writing them one after the other would leave them.
   */
  private static List<OriginVisitStats> distinct(
      List<OriginVisitStats> stats, BinaryOperator<OriginVisitStats> fold) {
    Map<OriginKey, OriginVisitStats> byKey = new LinkedHashMap<>();
    stats.forEach(s -> byKey.merge(s.key(), s, fold));
    return List.copyOf(byKey.values());
  }

  /** {@code later} upserted over {@code earlier}: later values win, nulls keep earlier ones. */
  private static OriginVisitStats merge(OriginVisitStats earlier, OriginVisitStats later) {
    return new OriginVisitStats(
        later.url(),
        later.visitType(),
        orElse(later.lastSuccessful(), earlier.lastSuccessful()),
        orElse(later.lastVisit(), earlier.lastVisit()),
        orElse(later.lastVisitStatus(), earlier.lastVisitStatus()),
        orElse(later.lastScheduled(), earlier.lastScheduled()),
        orElse(later.lastSnapshot(), earlier.lastSnapshot()),
        orElse(later.nextVisitQueuePosition(), earlier.nextVisitQueuePosition()),
        later.nextPositionOffset(),
        later.successiveVisits());
  }

  private static <T> T orElse(T value, T otherwise) {
    return value != null ? value : otherwise;
  }

  /** The batch in one statement, as parallel arrays. */
  private void writeStats(Handle h, SqlQuery query, List<OriginVisitStats> stats) {
    if (stats.isEmpty()) {
      return;
    }
    h.createUpdate(sql.get(query))
        .bind("urls", PgArray.of(String.class, column(stats, OriginVisitStats::url)))
        .bind("visit_types", PgArray.of(String.class, column(stats, OriginVisitStats::visitType)))
        .bind(
            "last_successful_ms",
            PgArray.of(Long.class, column(stats, s -> Columns.millis(s.lastSuccessful()))))
        .bind(
            "last_visit_ms",
            PgArray.of(Long.class, column(stats, s -> Columns.millis(s.lastVisit()))))
        .bind(
            "last_visit_statuses",
            PgArray.of(
                String.class,
                column(
                    stats, s -> s.lastVisitStatus() == null ? null : s.lastVisitStatus().dbName())))
        .bind(
            "last_scheduled_ms",
            PgArray.of(Long.class, column(stats, s -> Columns.millis(s.lastScheduled()))))
        .bind(
            "last_snapshots",
            PgArray.of(String.class, column(stats, OriginVisitStats::lastSnapshot)))
        .bind(
            "next_visit_queue_positions",
            PgArray.of(Long.class, column(stats, OriginVisitStats::nextVisitQueuePosition)))
        .bind(
            "next_position_offsets",
            PgArray.of(Integer.class, column(stats, OriginVisitStats::nextPositionOffset)))
        .bind(
            "successive_visits",
            PgArray.of(Integer.class, column(stats, OriginVisitStats::successiveVisits)))
        .bindMap(FrontierRows.defaultCooldownBounds(Instant.now()))
        .execute();
  }

  /** One field of every row, in order: a column of an array batch. */
  private static <R, T> List<T> column(List<R> rows, Function<R, T> field) {
    List<T> values = new ArrayList<>(rows.size());
    rows.forEach(r -> values.add(field.apply(r)));
    return values;
  }
}
