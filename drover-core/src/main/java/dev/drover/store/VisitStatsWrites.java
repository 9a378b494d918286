package dev.drover.store;

import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Reads and writes visit stats inside the caller's transaction, and keeps the mirror of them in
 * listed_origin equal to them: every write here refreshes the mirror of the origins it wrote.
 */
final class VisitStatsWrites {
  private final SqlFiles sql;
  private final FrontierRows rows;

  VisitStatsWrites(SqlFiles sql, FrontierRows rows) {
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
    write(h, "visitStatsUpsert", stats);
  }

  /** Writes {@code stats} as given, nulls included. */
  void replace(Handle h, List<OriginVisitStats> stats) {
    write(h, "visitStatsReplace", stats);
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
  void refreshMirror(Handle h, Collection<OriginKey> keys) {
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
