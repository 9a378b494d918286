package dev.drover.store;

import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Reads and writes visit stats inside the caller's transaction, and keeps the mirror of them in
 * listed_origin equal to them: every write here refreshes the mirror of the origins it wrote. On
 * PostgreSQL a write is one statement per batch (a round trip each); on SQLite, in process, a
 * prepared statement per row and one mirror refresh per chunk of urls.
 */
final class VisitStatsWrites {
  private final Dialect dialect;
  private final SqlFiles sql;
  private final FrontierRows rows;

  VisitStatsWrites(Dialect dialect, SqlFiles sql, FrontierRows rows) {
    this.dialect = dialect;
    this.sql = sql;
    this.rows = rows;
  }

  /** The stored stats of {@code keys}, by key; keys without stats are absent. */
  Map<OriginKey, OriginVisitStats> get(Handle h, Collection<OriginKey> keys) {
    Map<OriginKey, OriginVisitStats> found = new LinkedHashMap<>();
    urlsByType(keys).forEach((type, urls) -> {
      for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
        h.createQuery(sql.get("visitStatsGet")).bind("visit_type", type).bindList("urls", chunk)
            .map(rows.visitStats).forEach(s -> found.put(s.key(), s));
      }
    });
    return found;
  }

  /** Merges {@code stats} in: nulls keep the stored values. */
  void upsert(Handle h, List<OriginVisitStats> stats) {
    if (dialect == Dialect.POSTGRESQL) {
      writeAll(h, "visitStatsUpsertBatch", distinct(stats, VisitStatsWrites::merge));
    } else {
      write(h, "visitStatsUpsert", stats);
    }
  }

  /** Writes {@code stats} as given, nulls included. */
  void replace(Handle h, List<OriginVisitStats> stats) {
    if (dialect == Dialect.POSTGRESQL) {
      writeAll(h, "visitStatsReplaceBatch", distinct(stats, (earlier, later) -> later));
    } else {
      write(h, "visitStatsReplace", stats);
    }
  }

  /**
   * One statement cannot write a row twice, so a batch's stats of one key are folded first, as
   * writing them one after the other would leave them.
   */
  private static List<OriginVisitStats> distinct(List<OriginVisitStats> stats,
      BinaryOperator<OriginVisitStats> fold) {
    Map<OriginKey, OriginVisitStats> byKey = new LinkedHashMap<>();
    stats.forEach(s -> byKey.merge(s.key(), s, fold));
    return List.copyOf(byKey.values());
  }

  /** An upsert of {@code later} over {@code earlier}: later values win, nulls keep the earlier ones. */
  private static OriginVisitStats merge(OriginVisitStats earlier, OriginVisitStats later) {
    return new OriginVisitStats(later.url(), later.visitType(),
        orElse(later.lastSuccessful(), earlier.lastSuccessful()),
        orElse(later.lastVisit(), earlier.lastVisit()),
        orElse(later.lastVisitStatus(), earlier.lastVisitStatus()),
        orElse(later.lastScheduled(), earlier.lastScheduled()),
        orElse(later.lastSnapshot(), earlier.lastSnapshot()),
        orElse(later.nextVisitQueuePosition(), earlier.nextVisitQueuePosition()),
        later.nextPositionOffset(), later.successiveVisits());
  }

  private static <T> T orElse(T value, T otherwise) {
    return value != null ? value : otherwise;
  }

  private void writeAll(Handle h, String query, List<OriginVisitStats> stats) {
    if (stats.isEmpty()) {
      return;
    }
    h.createUpdate(sql.get(query))
        .bindArray("urls", String.class, column(stats, OriginVisitStats::url))
        .bindArray("visit_types", String.class, column(stats, OriginVisitStats::visitType))
        .bindArray("last_successful_ms", Long.class, column(stats, s -> millis(s.lastSuccessful())))
        .bindArray("last_visit_ms", Long.class, column(stats, s -> millis(s.lastVisit())))
        .bindArray("last_visit_statuses", String.class,
            column(stats, s -> s.lastVisitStatus() == null ? null : s.lastVisitStatus().dbName()))
        .bindArray("last_scheduled_ms", Long.class, column(stats, s -> millis(s.lastScheduled())))
        .bindArray("last_snapshots", String.class, column(stats, OriginVisitStats::lastSnapshot))
        .bindArray("next_visit_queue_positions", Long.class, column(stats, OriginVisitStats::nextVisitQueuePosition))
        .bindArray("next_position_offsets", Integer.class, column(stats, OriginVisitStats::nextPositionOffset))
        .bindArray("successive_visits", Integer.class, column(stats, OriginVisitStats::successiveVisits))
        .execute();
  }

  private static <T> List<T> column(List<OriginVisitStats> stats, Function<OriginVisitStats, T> field) {
    List<T> values = new ArrayList<>(stats.size());
    stats.forEach(s -> values.add(field.apply(s)));
    return values;
  }

  private static Long millis(Instant t) {
    return t == null ? null : t.toEpochMilli();
  }

  private void write(Handle h, String query, List<OriginVisitStats> stats) {
    if (stats.isEmpty()) {
      return;
    }
    PreparedBatch batch = h.prepareBatch(sql.get(query));
    for (OriginVisitStats s : stats) {
      batch.bind("url", s.url())
          .bind("visit_type", s.visitType())
          .bindByType("last_successful", s.lastSuccessful(), Instant.class)
          .bindByType("last_visit", s.lastVisit(), Instant.class)
          .bind("last_visit_status", s.lastVisitStatus() == null ? null : s.lastVisitStatus().dbName())
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
    urlsByType(keys).forEach((type, urls) -> {
      for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
        h.createUpdate(sql.get("originMirrorRefresh")).bind("visit_type", type).bindList("urls", chunk).execute();
      }
    });
  }

  /** The distinct urls of {@code keys}, per visit type. */
  private static Map<String, List<String>> urlsByType(Collection<OriginKey> keys) {
    Map<String, List<String>> urlsByType = new LinkedHashMap<>();
    keys.stream().distinct().forEach(k -> urlsByType.computeIfAbsent(k.visitType(), t -> new ArrayList<>()).add(k.url()));
    return urlsByType;
  }
}
