package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.DurationText;
import dev.drover.model.EventKind;
import dev.drover.store.DiskFull;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failed passes in a row, most often because the database is away (a restart, a fail-over, a lock
 * held by another process). Work in hand goes on meanwhile; its leases are safe until they expire,
 * and fencing rejects results that come too late. The runner backs off, doubling from {@code first}
 * up to {@code longest}, says once that it lost the database and once that it has it back (both go
 * to the event log once it can be written), and sums a long outage up once a minute in between. A
 * daemon never gives up; a one-off run gives up after {@link #ONE_OFF_LIMIT} failed passes in a
 * row. Loop thread only.
 */
final class Outage {
  private static final Logger log = LoggerFactory.getLogger(Outage.class);

  /** Failed passes in a row after which a one-off run (not a daemon) gives up. */
  static final int ONE_OFF_LIMIT = 20;

  private final Clock clock;
  private final String owner;
  private final String where;
  private final Duration first;
  private final Duration longest;
  private final boolean daemon;
  private final EventLog events;

  /** How often a long outage is summed up in the log. */
  static final Duration SUMMARY_EVERY = Duration.ofMinutes(1);

  private int failures;
  private Instant since;
  private Instant lastSummary;

  Outage(
      Clock clock,
      String owner,
      String where,
      Duration first,
      Duration longest,
      boolean daemon,
      EventLog events) {
    this.clock = clock;
    this.owner = owner;
    this.where = where;
    this.first = first;
    this.longest = longest;
    this.daemon = daemon;
    this.events = events;
  }

  /**
   * Records a failed pass and returns how long to wait before the next; rethrows {@code e} when a
   * one-off run gives up.
   */
  Duration failed(RuntimeException e, Instant now) {
    failures++;
    String why = why(e);
    if (failures == 1) {
      since = now;
      lastSummary = now;
      // One line: a stack trace per outage told an operator nothing the cause does not.
      log.error(
          "runner {} lost the database: {}; work in hand goes on, retrying with backoff up to {}",
          owner,
          why,
          DurationText.format(longest));
      log.debug("the pass that failed:", e);
      ObjectNode d = Json.object();
      d.put("error", why);
      events.add(EventKind.DATABASE_LOST, d);
    } else if (!now.isBefore(lastSummary.plus(SUMMARY_EVERY))) {
      lastSummary = now;
      log.warn(
          "runner {}: the database is still away after {} ({} failed passes); last error: {}",
          owner,
          DurationText.format(Duration.between(since, now)),
          failures,
          why);
    } else {
      log.debug("runner {}: pass {} in a row failed: {}", owner, failures, why);
    }
    if (!daemon && failures > ONE_OFF_LIMIT) {
      log.error("runner {} gives up after {} failed passes in a row", owner, failures);
      throw e;
    }
    long factor = 1L << Math.min(failures - 1, 20);
    Duration wait = first.multipliedBy(factor);
    return wait.compareTo(longest) > 0 ? longest : wait;
  }

  /** What failed, on one line: a full disk said as such (naming where), else {@link #cause}. */
  private String why(RuntimeException e) {
    String full = DiskFull.describe(e, where);
    return full != null ? full : cause(e);
  }

  /**
   * What failed, on one line: the innermost cause's message (a driver's "Connection refused",
   * SQLite's "database is locked"), not the statement text the outer exceptions carry.
   */
  static String cause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? "" : root.getMessage().strip();
    int eol = message.indexOf('\n');
    String line = eol < 0 ? message : message.substring(0, eol).strip();
    String text = line.isEmpty() ? root.getClass().getSimpleName() : line;
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }

  /** Records a pass that succeeded; says so if it ends an outage. */
  void succeeded(Instant now) {
    if (failures == 0) {
      return;
    }
    Duration lasted = Duration.between(since, now);
    log.info(
        "runner {} has the database back after {} ({} failed passes)", owner, lasted, failures);
    ObjectNode d = Json.object();
    d.put("failed_passes", failures);
    d.put("outage_ms", lasted.toMillis());
    events.add(EventKind.DATABASE_REGAINED, d);
    failures = 0;
  }

  /**
   * Waits {@code backoff} after a failed pass, or until asked to stop, heartbeating the leases the
   * runner holds when they are due meanwhile (each may fail again: the database may still be away).
   */
  void waitOut(
      Duration backoff, LeaseKeeper leases, BooleanSupplier stopRequested, Semaphore stopSignal)
      throws InterruptedException {
    Instant until = clock.instant().plus(backoff);
    while (!stopRequested.getAsBoolean()) {
      Instant now = clock.instant();
      if (!now.isBefore(until)) {
        return;
      }
      Instant wake = leases.nextHeartbeat(until);
      if (!wake.isAfter(now)) {
        try {
          leases.heartbeat(now);
        } catch (RuntimeException e) {
          log.debug("heartbeat during the outage failed: {}", e.toString());
        }
        wake = leases.nextHeartbeat(until);
        if (!wake.isAfter(now)) {
          wake = until; // it failed again: wait out the backoff
        }
      }
      long millis = Math.max(1, Duration.between(now, wake).toMillis());
      if (stopSignal.tryAcquire(millis, TimeUnit.MILLISECONDS)) {
        stopSignal.release(); // kept for whoever waits next
        return;
      }
    }
  }
}
