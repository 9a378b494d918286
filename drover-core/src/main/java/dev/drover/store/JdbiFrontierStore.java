package dev.drover.store;

import static dev.drover.ValidationException.check;
import static dev.drover.store.SqlQuery.LISTER_GET_BY_IDS;
import static dev.drover.store.SqlQuery.LISTER_GET_BY_NAME;
import static dev.drover.store.SqlQuery.LISTER_INSERT_IF_ABSENT;
import static dev.drover.store.SqlQuery.LISTER_LIST;
import static dev.drover.store.SqlQuery.LISTER_UPDATE;
import static dev.drover.store.SqlQuery.METRICS_UPDATE;
import static dev.drover.store.SqlQuery.ORIGIN_ROWS_ESTIMATE;
import static dev.drover.store.SqlQuery.VISIT_QUEUE_POSITION_GET;

import dev.drover.Json;
import dev.drover.StaleDataException;
import dev.drover.ValidationException;
import dev.drover.frontier.IngestReport;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginPage;
import dev.drover.frontier.OriginQuery;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.SchedulerMetrics;
import dev.drover.frontier.VisitRequest;
import dev.drover.frontier.VisitResult;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The {@link FrontierStore} on either database, over the same Jdbi, dialect and SQL files as {@link
 * JdbiStore}. Listers, stats reads and metrics are here; recording and listing origins, grabbing
 * visits and ingesting results have a class each.
 */
final class JdbiFrontierStore implements FrontierStore {
  private final Jdbi jdbi;
  private final SqlFiles sql;
  private final FrontierRows rows;
  private final VisitTypeLocks locks;
  private final VisitStatsWrites stats;
  private final OriginRecords origins;
  private final VisitGrab grab;
  private final VisitIngest ingest;

  JdbiFrontierStore(Jdbi jdbi, DialectSql dialect) {
    this.jdbi = jdbi;
    this.sql = dialect.files();
    this.rows = new FrontierRows(dialect);
    this.locks = new VisitTypeLocks(dialect);
    this.stats = new VisitStatsWrites(dialect, rows);
    this.origins = new OriginRecords(jdbi, dialect, rows, locks);
    this.grab = new VisitGrab(jdbi, dialect, rows, locks);
    this.ingest = new VisitIngest(jdbi, sql, stats, locks);
  }

  // ---- listers

  @Override
  public Lister listerGetOrCreate(
      String name, String instanceName, String firstVisitsQueuePrefix, Instant now) {
    check(name != null && !name.isBlank(), "name", "a lister needs a name");
    String instance = instanceName == null ? "" : instanceName;
    return jdbi.inTransaction(
        h -> {
          h.createUpdate(sql.get(LISTER_INSERT_IF_ABSENT))
              .bind("id", UUID.randomUUID().toString())
              .bind("name", name)
              .bind("instance_name", instance)
              .bind("now", now)
              .bind("first_visits_queue_prefix", firstVisitsQueuePrefix)
              .execute();
          return listerGet(h, name, instance).orElseThrow();
        });
  }

  @Override
  public Optional<Lister> listerGet(String name, String instanceName) {
    return jdbi.withHandle(h -> listerGet(h, name, instanceName == null ? "" : instanceName));
  }

  private Optional<Lister> listerGet(Handle h, String name, String instance) {
    return h.createQuery(sql.get(LISTER_GET_BY_NAME))
        .bind("name", name)
        .bind("instance_name", instance)
        .map(rows.lister)
        .findOne();
  }

  @Override
  public List<Lister> listerGetByIds(List<UUID> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return jdbi.withHandle(h -> listersById(h, ids));
  }

  /** The listers that list {@code origins}, by id, read in the transaction open on {@code h}. */
  Map<UUID, Lister> listersOf(Handle h, List<ListedOrigin> origins) {
    List<UUID> ids = origins.stream().map(ListedOrigin::listerId).distinct().toList();
    Map<UUID, Lister> listers = new HashMap<>();
    listersById(h, ids).forEach(l -> listers.put(l.id(), l));
    return listers;
  }

  private List<Lister> listersById(Handle h, List<UUID> ids) {
    return h.createQuery(sql.get(LISTER_GET_BY_IDS))
        .bindList("ids", ids.stream().map(FrontierRows::text).toList())
        .map(rows.lister)
        .list();
  }

  @Override
  public List<Lister> listerList() {
    return jdbi.withHandle(h -> h.createQuery(sql.get(LISTER_LIST)).map(rows.lister).list());
  }

  @Override
  public Lister listerUpdate(Lister lister, Instant now) {
    check(
        lister.id() != null && lister.updated() != null,
        "lister",
        "update a lister read from the store");
    // The new version is strictly after the one read, even when now is not (same millisecond, or
    // a clock behind): otherwise a second writer holding the same old version would not be refused.
    Instant read = lister.updated();
    Instant at = Columns.toMillis(now);
    Instant version = at.isAfter(read) ? at : read.plusMillis(1);
    return jdbi.inTransaction(
        h -> {
          Optional<Lister> updated =
              h.createQuery(sql.get(LISTER_UPDATE))
                  .bind("id", FrontierRows.text(lister.id()))
                  .bind("expected_updated", read)
                  .bind("current_state", Json.canonical(lister.currentState()))
                  .bindByType(
                      "last_listing_finished_at", lister.lastListingFinishedAt(), Instant.class)
                  .bind("first_visits_queue_prefix", lister.firstVisitsQueuePrefix())
                  .bindByType(
                      "first_visits_scheduled_at", lister.firstVisitsScheduledAt(), Instant.class)
                  .bind("updated", version)
                  .map(rows.lister)
                  .findOne();
          if (updated.isPresent()) {
            return updated.get();
          }
          if (listersById(h, List.of(lister.id())).isEmpty()) {
            throw new ValidationException("id", "unknown lister " + lister.id());
          }
          throw new StaleDataException(
              "stale data: lister "
                  + lister.id()
                  + " ('"
                  + lister.name()
                  + "', '"
                  + lister.instanceName()
                  + "') changed since version "
                  + read
                  + " was read; nothing was written");
        });
  }

  // ---- listed origins

  @Override
  public List<ListedOrigin> originRecord(List<ListedOrigin> listed, Instant now) {
    return origins.record(listed, now);
  }

  @Override
  public OriginPage originList(OriginQuery query) {
    return origins.list(query);
  }

  @Override
  public List<ListedOrigin> originGrabNextVisits(VisitRequest request, Instant now) {
    return grab.grab(request, now);
  }

  /**
   * {@link #originGrabNextVisits} in the transaction open on {@code h}, for a caller that writes
   * more in it.
   */
  List<ListedOrigin> originGrabNextVisits(Handle h, VisitRequest request, Instant now) {
    ValidationException.check(!request.dryRun(), "dry_run", "a grab in a pass cannot be a dry run");
    return grab.grab(h, request, now);
  }

  @Override
  public List<String> originGrabPlan(VisitRequest request, Instant now) {
    return grab.plan(request, now);
  }

  @Override
  public long originRowsEstimate(long cap) {
    return jdbi.withHandle(
        h -> {
          Long estimate =
              h.createQuery(sql.get(ORIGIN_ROWS_ESTIMATE)).mapTo(Long.class).findOne().orElse(-1L);
          if (estimate != null && estimate >= 0) {
            return estimate;
          }
          // Never analyzed (PostgreSQL): count, reading at most cap rows.
          return h.createQuery("SELECT count(*) FROM (SELECT 1 FROM listed_origin LIMIT :cap) c")
              .bind("cap", cap)
              .mapTo(Long.class)
              .one();
        });
  }

  // ---- visit stats and the visit queue

  @Override
  public List<OriginVisitStats> visitStatsGet(List<OriginKey> keys) {
    if (keys.isEmpty()) {
      return List.of();
    }
    return jdbi.withHandle(
        h -> {
          var found = stats.get(h, keys);
          return keys.stream().distinct().filter(found::containsKey).map(found::get).toList();
        });
  }

  @Override
  public void visitStatsUpsert(List<OriginVisitStats> list) {
    writeStats("upsert", list, stats::upsert);
  }

  @Override
  public void visitStatsReplace(List<OriginVisitStats> list) {
    writeStats("replacement", list, stats::replace);
  }

  /** A blind stats write, beside other stats writers, and again if it ends a deadlock's victim. */
  private void writeStats(
      String kind, List<OriginVisitStats> list, BiConsumer<Handle, List<OriginVisitStats>> write) {
    DeadlockRetry.run(
        "a visit stats " + kind + " of " + list.size() + " origins",
        () ->
            jdbi.useTransaction(
                h -> {
                  locks.lockForStats(h, list.stream().map(OriginVisitStats::visitType).toList());
                  write.accept(h, list);
                }));
  }

  @Override
  public IngestReport visitResultsIngest(List<VisitResult> results, RandomGenerator random) {
    return ingest.ingest(results, random);
  }

  @Override
  public long visitQueuePosition(String visitType) {
    return jdbi.withHandle(
        h ->
            h.createQuery(sql.get(VISIT_QUEUE_POSITION_GET))
                .bind("visit_type", visitType)
                .map((rs, ctx) -> rs.getLong("position"))
                .findOne()
                .orElse(0L));
  }

  // ---- metrics

  @Override
  public List<SchedulerMetrics> metricsUpdate(UUID listerId, Instant now) {
    return jdbi.inTransaction(
        h -> {
          List<UUID> listers;
          if (listerId == null) {
            listers =
                h.createQuery(sql.get(LISTER_LIST)).map(rows.lister).list().stream()
                    .map(Lister::id)
                    .toList();
          } else if (listersById(h, List.of(listerId)).isEmpty()) {
            throw new ValidationException("lister_id", "unknown lister " + listerId);
          } else {
            listers = List.of(listerId);
          }
          for (UUID id : listers) {
            h.createUpdate(sql.get(METRICS_UPDATE))
                .bind("lister_id", FrontierRows.text(id))
                .bind("now", now)
                .execute();
          }
          return metricsGet(h, listerId, null);
        });
  }

  @Override
  public List<SchedulerMetrics> metricsGet(UUID listerId, String visitType) {
    return jdbi.withHandle(h -> metricsGet(h, listerId, visitType));
  }

  private List<SchedulerMetrics> metricsGet(Handle h, UUID listerId, String visitType) {
    Where where =
        new Where()
            .eq("lister_id = :lister_id", "lister_id", FrontierRows.text(listerId))
            .eq("visit_type = :visit_type", "visit_type", visitType);
    return where
        .bind(
            h.createQuery(
                "SELECT * FROM scheduler_metrics"
                    + where.sql()
                    + " ORDER BY lister_id, visit_type"))
        .map(rows.metrics)
        .list();
  }
}
