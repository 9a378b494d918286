package dev.drover.store;

import static dev.drover.store.SqlQuery.VISIT_STATS_GET;

import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Reads and writes visit stats inside the caller's transaction. A listed url's stats are in every
 * lister's row of it (V028 on PostgreSQL, V029 on SQLite), equal in each, and origin_visit_stats
 * holds the stats of urls no lister lists; every write here keeps them so. How a batch is written
 * is the dialect's ({@link DialectSql#upsertStats}).
 */
final class VisitStatsWrites {
  private final DialectSql dialect;
  private final SqlFiles sql;
  private final FrontierRows rows;

  VisitStatsWrites(DialectSql dialect, FrontierRows rows) {
    this.dialect = dialect;
    this.sql = dialect.files();
    this.rows = rows;
  }

  /** The stored stats of {@code keys}, by key; keys without stats are absent. */
  Map<OriginKey, OriginVisitStats> get(Handle h, Collection<OriginKey> keys) {
    Map<OriginKey, OriginVisitStats> found = new LinkedHashMap<>();
    urlsByType(keys)
        .forEach(
            (type, urls) -> {
              for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
                h.createQuery(sql.get(VISIT_STATS_GET))
                    .bind("visit_type", type)
                    .bindList("urls", chunk)
                    .map(rows.visitStats)
                    .forEach(s -> found.put(s.key(), s));
              }
            });
    return found;
  }

  /** Merges {@code stats} in: nulls keep the stored values. */
  void upsert(Handle h, List<OriginVisitStats> stats) {
    dialect.upsertStats(h, stats);
  }

  /** Writes {@code stats} as given, nulls included. */
  void replace(Handle h, List<OriginVisitStats> stats) {
    dialect.replaceStats(h, stats);
  }

  /** The distinct urls of {@code keys}, per visit type. */
  static Map<String, List<String>> urlsByType(Collection<OriginKey> keys) {
    Map<String, List<String>> urlsByType = new LinkedHashMap<>();
    keys.stream()
        .distinct()
        .forEach(
            k -> urlsByType.computeIfAbsent(k.visitType(), t -> new ArrayList<>()).add(k.url()));
    return urlsByType;
  }
}
