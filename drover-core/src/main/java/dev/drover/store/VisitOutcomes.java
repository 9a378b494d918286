package dev.drover.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.VisitResult;
import dev.drover.frontier.VisitStatus;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Turns the ends of visit runs into visit results, ingested into visit stats in the transaction
 * that ends the runs, so a crash can never record a run's end without its visit. A visit run is a
 * run of a task of type {@code load-<visit type>} whose keyword argument {@code url} names the
 * origin (what {@code VisitScheduler} creates).
 *
 * <p>How a run's end reads as a visit:
 *
 * <ul>
 *   <li>the visit is dated by the run's end: the reference dates a visit by its final status;
 *   <li>eventful and uneventful runs are successful visits of the snapshot in the result ({@code
 *       result.snapshot}); the snapshot decides eventfulness as the reference says. A run that
 *       reports none archived something new if eventful (its snapshot is named after the run,
 *       {@code run:<backend id>}) and the origin's last snapshot again if uneventful;
 *   <li>failed runs, and permanently failed ones not marked {@code not_found}, are failed visits; a
 *       {@code not_found} outcome is a not-found visit;
 *   <li>lost runs (rescued or released) are not visits: the loader never said how the visit went,
 *       which is what the scheduled cooldown is for, and a crashed runner is not the origin's
 *       fault.
 * </ul>
 *
 * <p>It is a {@link RunEndHook}: it gets the runs a transaction ended in one batch, last in the
 * transaction, so on PostgreSQL the frontier's visit-type locks are taken after every task row
 * lock, in sorted order, and ending runs cannot deadlock with each other or with grabs.
 */
final class VisitOutcomes implements RunEndHook {
  static final String TYPE_PREFIX = "load-";
  static final String SYNTHETIC_SNAPSHOT_PREFIX = "run:";

  private final VisitIngest ingest;
  private final VisitStatsWrites stats;
  private final VisitTypeLocks locks;

  VisitOutcomes(VisitIngest ingest, VisitStatsWrites stats, VisitTypeLocks locks) {
    this.ingest = ingest;
    this.stats = stats;
    this.locks = locks;
  }

  /** Visit outcomes over the same database and SQL files as the frontier store. */
  static VisitOutcomes create(Jdbi jdbi, DialectSql dialect) {
    VisitStatsWrites stats = new VisitStatsWrites(dialect, new FrontierRows(dialect));
    VisitTypeLocks locks = new VisitTypeLocks(dialect);
    return new VisitOutcomes(new VisitIngest(jdbi, dialect.files(), stats, locks), stats, locks);
  }

  /**
   * A run's end read as a visit, before its snapshot is settled; {@code snapshot} null if it
   * reported none.
   */
  record Pending(
      OriginKey key,
      Instant date,
      VisitStatus status,
      String snapshot,
      boolean eventful,
      String backendId) {}

  /**
   * The visit {@code run} of {@code task} was, if it is a visit run ending with a visit status;
   * else null.
   */
  static Pending read(Task task, TaskRun run, TaskRunStatus status, Instant at) {
    if (!task.type().startsWith(TYPE_PREFIX) || task.type().length() == TYPE_PREFIX.length()) {
      return null;
    }
    JsonNode url = task.arguments().kwargs().get("url");
    if (url == null || !url.isTextual() || url.textValue().isBlank()) {
      return null;
    }
    JsonNode result = run.metadata() == null ? null : run.metadata().get("result");
    VisitStatus visit =
        switch (status) {
          case EVENTFUL, UNEVENTFUL -> VisitStatus.FULL;
          case FAILED -> VisitStatus.FAILED;
          case PERMFAILED ->
              result != null && result.path("not_found").asBoolean(false)
                  ? VisitStatus.NOT_FOUND
                  : VisitStatus.FAILED;
          default -> null;
        };
    if (visit == null) {
      return null;
    }
    JsonNode snap = result == null ? null : result.get("snapshot");
    String snapshot =
        snap != null && (snap.isTextual() || snap.isNumber()) && !snap.asText().isBlank()
            ? snap.asText()
            : null;
    OriginKey key = new OriginKey(url.textValue(), task.type().substring(TYPE_PREFIX.length()));
    return new Pending(key, at, visit, snapshot, status == TaskRunStatus.EVENTFUL, run.backendId());
  }

  /** Ingests the visits among {@code runs}, inside the caller's transaction. */
  @Override
  public void ended(Handle h, List<EndedRun> runs, Instant at) {
    List<Pending> todo = new ArrayList<>();
    for (EndedRun r : runs) {
      Pending p = read(r.task(), r.run(), r.status(), at);
      if (p != null) {
        todo.add(p);
      }
    }
    if (todo.isEmpty()) {
      return;
    }
    locks.lock(h, todo.stream().map(p -> p.key().visitType()).toList());
    Map<OriginKey, String> lastSnapshot = new HashMap<>();
    List<OriginKey> unknown =
        todo.stream().filter(p -> p.snapshot() == null && !p.eventful()).map(Pending::key).toList();
    if (!unknown.isEmpty()) {
      stats
          .get(h, unknown)
          .forEach(
              (k, s) -> {
                if (s.lastSnapshot() != null) {
                  lastSnapshot.put(k, s.lastSnapshot());
                }
              });
    }
    List<VisitResult> results = new ArrayList<>(todo.size());
    for (Pending p : todo) {
      String snapshot = p.snapshot();
      if (p.status() == VisitStatus.FULL && snapshot == null) {
        String synthetic = SYNTHETIC_SNAPSHOT_PREFIX + p.backendId();
        snapshot = p.eventful() ? synthetic : lastSnapshot.getOrDefault(p.key(), synthetic);
      }
      if (p.status() == VisitStatus.FULL) {
        lastSnapshot.put(p.key(), snapshot);
      }
      results.add(
          new VisitResult(
              p.key().url(),
              p.key().visitType(),
              p.date(),
              p.status(),
              p.status() == VisitStatus.FULL ? snapshot : null));
    }
    ingest.ingest(h, results, ThreadLocalRandom.current());
  }
}
