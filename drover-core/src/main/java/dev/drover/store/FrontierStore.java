package dev.drover.store;

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
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * The durable state of the crawl frontier: listers, listed origins, visit stats, the visit queue
 * and metrics (see {@code dev.drover.frontier}). Like {@link Store}, every method is one
 * transaction, takes the time it needs as {@code now} and never reads a clock; bad input is refused
 * with a {@link dev.drover.ValidationException} before anything is written.
 */
public interface FrontierStore {

  // ---- listers

  /**
   * The lister of that name and instance ({@code null} instance = {@code ""}), created at {@code
   * now} if absent; {@code firstVisitsQueuePrefix} is only used when creating.
   */
  Lister listerGetOrCreate(
      String name, String instanceName, String firstVisitsQueuePrefix, Instant now);

  Optional<Lister> listerGet(String name, String instanceName);

  /** The listers with these ids; unknown ids are skipped. */
  List<Lister> listerGetByIds(List<UUID> ids);

  /** Every lister, by name and instance. */
  List<Lister> listerList();

  /**
   * Writes the lister's state, last listing, first-visits prefix and scheduling time, if it has not
   * changed since {@code lister} was read (its {@code updated} is the version). Returns the stored
   * lister with its new version, after {@code now}'s.
   *
   * @throws dev.drover.StaleDataException when the stored version differs; nothing is written
   * @throws dev.drover.ValidationException when there is no such lister
   */
  Lister listerUpdate(Lister lister, Instant now);

  // ---- listed origins

  /**
   * Records what listers listed, at {@code now}: new origins are inserted, known ones get the given
   * fields (including {@code enabled}, so a listing enables an origin again) and {@code last_seen =
   * now}, keeping {@code first_seen}. Duplicates in the batch collapse, the last one winning.
   * Returns the stored origins, one per distinct key, in input order.
   *
   * @throws dev.drover.ValidationException when an origin names an unknown lister; nothing is
   *     written
   */
  List<ListedOrigin> originRecord(List<ListedOrigin> origins, Instant now);

  /** A page of listed origins in (lister, url, visit type) order. */
  OriginPage originList(OriginQuery query);

  /**
   * Chooses origins to visit next by the request's policy, filters and cooldowns, at {@code now},
   * in the policy's order. Unless a dry run, in the same transaction: records {@code now} as their
   * {@code last_scheduled}, and for {@code origins_without_last_update} advances the visit type's
   * queue position to the furthest one chosen. Writes of one visit type take turns, so concurrent
   * grabs never return the same row.
   *
   * @throws dev.drover.ValidationException when a lister filter names no lister
   */
  List<ListedOrigin> originGrabNextVisits(VisitRequest request, Instant now);

  /**
   * How the database chooses the origins of {@code request} at {@code now}, one line per plan node,
   * for finding why a grab is slow. Nothing is recorded. On PostgreSQL the selection runs ({@code
   * EXPLAIN (ANALYZE, BUFFERS)}: times, rows and buffers); on SQLite it is the plan chosen ({@code
   * EXPLAIN QUERY PLAN}), not run.
   *
   * @throws dev.drover.ValidationException when a lister filter names no lister
   */
  List<String> originGrabPlan(VisitRequest request, Instant now);

  /**
   * About how many listed origins there are (all visit types), read cheaply: the planner's estimate
   * on PostgreSQL (a count of at most {@code cap} rows when the table was never analyzed), the
   * largest rowid on SQLite. The visit scheduler uses it to decide whether a sample can help.
   */
  long originRowsEstimate(long cap);

  // ---- visit stats and the visit queue

  /** The stats kept for these origins; origins without stats are skipped. */
  List<OriginVisitStats> visitStatsGet(List<OriginKey> keys);

  /**
   * Merges stats in: a null field keeps what is stored (it never erases), other fields replace it;
   * the offset and successive visits are always written.
   */
  void visitStatsUpsert(List<OriginVisitStats> stats);

  /**
   * Writes stats exactly as given, nulls included: the explicit reset. Replacing with {@link
   * OriginVisitStats#initial(String, String)} makes an origin as if never visited nor scheduled.
   */
  void visitStatsReplace(List<OriginVisitStats> stats);

  /**
   * Applies visit results, in order, as {@link dev.drover.frontier.VisitStatsRules} says: stats,
   * queue positions (jitter drawn from {@code random}) and, after repeated failures, disabling the
   * origin's (url, visit type) under every lister.
   */
  IngestReport visitResultsIngest(List<VisitResult> results, RandomGenerator random);

  /** The visit type's queue position, in virtual seconds; 0 before the first advance. */
  long visitQueuePosition(String visitType);

  // ---- metrics

  /**
   * Counts the origins of {@code listerId} (every lister when null) per visit type, stores the
   * counts as of {@code now} and returns them.
   *
   * @throws dev.drover.ValidationException when the lister is unknown
   */
  List<SchedulerMetrics> metricsUpdate(UUID listerId, Instant now);

  /** Stored metrics, of one lister and/or one visit type when not null. */
  List<SchedulerMetrics> metricsGet(UUID listerId, String visitType);
}
