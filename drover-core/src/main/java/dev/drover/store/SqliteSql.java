package dev.drover.store;

import static dev.drover.store.SqlQuery.ORIGIN_GET_BY_KEYS;
import static dev.drover.store.SqlQuery.ORIGIN_MIRROR_REFRESH;
import static dev.drover.store.SqlQuery.ORIGIN_MIRROR_SCHEDULED;
import static dev.drover.store.SqlQuery.ORIGIN_RECORD;
import static dev.drover.store.SqlQuery.TASK_RUN_END_MANY;
import static dev.drover.store.SqlQuery.TASK_UPDATE_AFTER_RUN_AS_CLAIMED;
import static dev.drover.store.SqlQuery.VISIT_MARK_SCHEDULED;
import static dev.drover.store.SqlQuery.VISIT_STATS_REPLACE;
import static dev.drover.store.SqlQuery.VISIT_STATS_UPSERT;

import dev.drover.Json;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.model.Task;
import dev.drover.schedule.TaskUpdate;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;

/**
 * SQLite's side of {@link DialectSql}. SQLite runs in process, so a batch is a prepared statement
 * per row in one JDBC batch (no round trips to save), and its one writer with IMMEDIATE
 * transactions makes writers take turns without locks. Instants are INTEGER milliseconds.
 */
final class SqliteSql implements DialectSql {
  /** SQLite samples rows with this resolution, so that 0.1 % (the git default) is expressible. */
  private static final int SAMPLE_SCALE = 1_000_000;

  private final SqlFiles sql;

  SqliteSql(SqlFiles sql) {
    this.sql = sql;
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

  /**
   * In a transaction begun and ended by plain statements on a connection left in auto-commit mode.
   * JDBC's way costs four: sqlite-jdbc runs BEGIN when auto-commit goes off, COMMIT then BEGIN
   * again on commit, and COMMIT once more when auto-commit comes back on. IMMEDIATE, as the pool's
   * transactions, so the reads happen under the write lock and see what the write will see.
   */
  @Override
  public <T> T inSingleWrite(Jdbi jdbi, HandleCallback<T, RuntimeException> work) {
    return jdbi.withHandle(
        h -> {
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
        });
  }

  @Override
  public void bindIds(Query query, String name, List<Long> ids) {
    StringBuilder json = new StringBuilder(ids.size() * 8).append('[');
    for (int i = 0; i < ids.size(); i++) {
      json.append(i == 0 ? "" : ",").append(ids.get(i).longValue());
    }
    query.bind(name, json.append(']').toString()); // read with json_each
  }

  /** One fenced update per row in a JDBC batch. */
  @Override
  public boolean[] updateAsClaimed(
      Handle h, String owner, List<Completion> completions, List<TaskUpdate> updates) {
    PreparedBatch batch = h.prepareBatch(sql.get(TASK_UPDATE_AFTER_RUN_AS_CLAIMED));
    for (int i = 0; i < completions.size(); i++) {
      Completion c = completions.get(i);
      Task task = c.claimed().task();
      RunEnder.bindUpdate(batch, task, updates.get(i))
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

  @Override
  public void endRuns(
      Handle h, String owner, List<RunEnder.Ending> endings, List<String> metadata, Instant at) {
    PreparedBatch runs = h.prepareBatch(sql.get(TASK_RUN_END_MANY));
    for (int i = 0; i < endings.size(); i++) {
      RunEnder.Ending e = endings.get(i);
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

  /** Nothing to lock: one writer, and every transaction begins IMMEDIATE. */
  @Override
  public void lockVisitTypes(Handle h, List<String> visitTypes) {}

  /** A prepared statement per origin, then the stored rows read back by key. */
  @Override
  public List<ListedOrigin> recordOrigins(
      Handle h, List<ListedOrigin> origins, Instant now, FrontierRows rows) {
    PreparedBatch batch = h.prepareBatch(sql.get(ORIGIN_RECORD));
    for (ListedOrigin o : origins) {
      batch
          .bind("lister_id", FrontierRows.text(o.listerId()))
          .bind("url", o.url())
          .bind("visit_type", o.visitType())
          .bind("extra_loader_arguments", Json.canonical(o.extraLoaderArguments()))
          .bind("enabled", o.enabled())
          .bind("now", now)
          .bindByType("last_update", o.lastUpdate(), Instant.class)
          .bindByType("is_fork", o.isFork(), Boolean.class)
          .bind("forked_from_url", o.forkedFromUrl())
          .add();
    }
    batch.execute();
    return readBack(h, origins, rows);
  }

  private List<ListedOrigin> readBack(Handle h, List<ListedOrigin> wanted, FrontierRows rows) {
    Map<OriginRecords.Key, List<String>> urlsByGroup = new LinkedHashMap<>();
    for (ListedOrigin o : wanted) {
      OriginRecords.Key group = new OriginRecords.Key(o.listerId(), null, o.visitType());
      urlsByGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(o.url());
    }
    Map<OriginRecords.Key, ListedOrigin> stored = new LinkedHashMap<>();
    urlsByGroup.forEach(
        (group, urls) -> {
          for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
            h.createQuery(sql.get(ORIGIN_GET_BY_KEYS))
                .bind("lister_id", FrontierRows.text(group.listerId()))
                .bind("visit_type", group.visitType())
                .bindList("urls", chunk)
                .map(rows.listedOrigin)
                .forEach(o -> stored.put(OriginRecords.Key.of(o), o));
          }
        });
    return wanted.stream().map(o -> stored.get(OriginRecords.Key.of(o))).toList();
  }

  /** The stats, then their mirror, one statement each per chunk of urls. */
  @Override
  public void markScheduled(Handle h, String visitType, List<String> urls, Instant now) {
    for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
      for (SqlQuery query : List.of(VISIT_MARK_SCHEDULED, ORIGIN_MIRROR_SCHEDULED)) {
        h.createUpdate(sql.get(query))
            .bind("visit_type", visitType)
            .bindList("urls", chunk)
            .bind("now", now)
            .execute();
      }
    }
  }

  @Override
  public void upsertStats(Handle h, List<OriginVisitStats> stats) {
    writeStats(h, VISIT_STATS_UPSERT, stats);
  }

  @Override
  public void replaceStats(Handle h, List<OriginVisitStats> stats) {
    writeStats(h, VISIT_STATS_REPLACE, stats);
  }

  /** SQLite has no TABLESAMPLE: each row is kept with the requested probability. */
  @Override
  public String sample(double percent, Map<String, Object> values) {
    values.put("sample_share", Math.round(percent / 100 * SAMPLE_SCALE));
    return "AND abs(random() % " + SAMPLE_SCALE + ") < :sample_share";
  }

  /** A prepared statement per row, then one mirror refresh per chunk of urls. */
  private void writeStats(Handle h, SqlQuery query, List<OriginVisitStats> stats) {
    if (stats.isEmpty()) {
      return;
    }
    PreparedBatch batch = h.prepareBatch(sql.get(query));
    for (OriginVisitStats s : stats) {
      batch
          .bind("url", s.url())
          .bind("visit_type", s.visitType())
          .bindByType("last_successful", s.lastSuccessful(), Instant.class)
          .bindByType("last_visit", s.lastVisit(), Instant.class)
          .bind(
              "last_visit_status",
              s.lastVisitStatus() == null ? null : s.lastVisitStatus().dbName())
          .bindByType("last_scheduled", s.lastScheduled(), Instant.class)
          .bind("last_snapshot", s.lastSnapshot())
          .bindByType("next_visit_queue_position", s.nextVisitQueuePosition(), Long.class)
          .bind("next_position_offset", s.nextPositionOffset())
          .bind("successive_visits", s.successiveVisits())
          .add();
    }
    batch.execute();
    refreshMirror(h, stats.stream().map(OriginVisitStats::key).toList());
  }

  /** Copies the stats of {@code keys} into the mirror columns of their listed origins. */
  private void refreshMirror(Handle h, Collection<OriginKey> keys) {
    VisitStatsWrites.urlsByType(keys)
        .forEach(
            (type, urls) -> {
              for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
                h.createUpdate(sql.get(ORIGIN_MIRROR_REFRESH))
                    .bind("visit_type", type)
                    .bindList("urls", chunk)
                    .execute();
              }
            });
  }
}
