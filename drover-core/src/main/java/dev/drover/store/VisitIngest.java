package dev.drover.store;

import static dev.drover.store.SqlQuery.ORIGIN_DISABLE;
import static dev.drover.store.SqlQuery.VISIT_QUEUE_POSITION_LIST;

import dev.drover.frontier.IngestReport;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.VisitResult;
import dev.drover.frontier.VisitStatsRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Applies a batch of visit results in one transaction: reads the stats of the origins concerned and
 * the queue positions, applies {@link VisitStatsRules} to each result in order (so several results
 * for one origin build on each other), writes the stats that changed and disables the origins that
 * failed too often.
 */
final class VisitIngest {
  private final Jdbi jdbi;
  private final SqlFiles sql;
  private final VisitStatsWrites stats;
  private final VisitTypeLocks locks;

  VisitIngest(Jdbi jdbi, SqlFiles sql, VisitStatsWrites stats, VisitTypeLocks locks) {
    this.jdbi = jdbi;
    this.sql = sql;
    this.stats = stats;
    this.locks = locks;
  }

  IngestReport ingest(List<VisitResult> results, RandomGenerator random) {
    if (results.isEmpty()) {
      return new IngestReport(0, 0, List.of());
    }
    return jdbi.inTransaction(h -> ingest(h, results, random));
  }

  /** As {@link #ingest(List, RandomGenerator)}, inside the caller's transaction. */
  IngestReport ingest(Handle h, List<VisitResult> results, RandomGenerator random) {
    Set<OriginKey> keys = new LinkedHashSet<>();
    results.stream().filter(r -> r.status().isFinal()).forEach(r -> keys.add(r.key()));
    locks.lock(h, keys.stream().map(OriginKey::visitType).toList());
    Map<OriginKey, OriginVisitStats> current = new HashMap<>(stats.get(h, keys));
    Map<String, Long> positions = new HashMap<>();
    h.createQuery(sql.get(VISIT_QUEUE_POSITION_LIST))
        .map((rs, ctx) -> Map.entry(rs.getString("visit_type"), rs.getLong("position")))
        .forEach(e -> positions.put(e.getKey(), e.getValue()));

    Map<OriginKey, OriginVisitStats> changed = new LinkedHashMap<>();
    Set<OriginKey> toDisable = new LinkedHashSet<>();
    int applied = 0;
    for (VisitResult r : results) {
      OriginVisitStats before =
          current.getOrDefault(r.key(), OriginVisitStats.initial(r.url(), r.visitType()));
      Optional<VisitStatsRules.Outcome> outcome =
          VisitStatsRules.apply(before, r, positions.getOrDefault(r.visitType(), 0L), random);
      if (outcome.isEmpty()) {
        continue;
      }
      applied++;
      current.put(r.key(), outcome.get().stats());
      changed.put(r.key(), outcome.get().stats());
      if (outcome.get().disable()) {
        toDisable.add(r.key());
      }
    }
    stats.replace(h, new ArrayList<>(changed.values()));
    List<OriginKey> disabled = disable(h, toDisable);
    return new IngestReport(applied, results.size() - applied, disabled);
  }

  /** Disables the listed origins of {@code keys}; returns the keys that had enabled rows. */
  private List<OriginKey> disable(Handle h, Set<OriginKey> keys) {
    if (keys.isEmpty()) {
      return List.of();
    }
    PreparedBatch batch = h.prepareBatch(sql.get(ORIGIN_DISABLE));
    List<OriginKey> ordered = new ArrayList<>(keys);
    for (OriginKey k : ordered) {
      batch.bind("url", k.url()).bind("visit_type", k.visitType()).add();
    }
    int[] counts = batch.execute();
    List<OriginKey> disabled = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] > 0) {
        disabled.add(ordered.get(i));
      }
    }
    return disabled;
  }
}
