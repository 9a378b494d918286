package dev.drover.store;

import static dev.drover.store.SqlQuery.VISIT_GRAB;
import static dev.drover.store.SqlQuery.VISIT_GRAB_SAMPLED;

import dev.drover.frontier.Cooldowns;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.SqlStatement;

/**
 * Fills in the grab's SQL templates for one request: the choice ({@code visitGrab.sql}, or {@code
 * visitGrabSampled.sql} for a request that samples the table) and, before it, the return of the
 * origins awaiting a visit whose cooldowns have ended ({@code visitReturnAwaiting.sql}) and of
 * those cooling after a failed or not-found visit whose cooldown has ended ({@code
 * visitReturnCooled.sql}). Only fixed fragments are chosen here; every value from the request is a
 * bound parameter.
 */
final class VisitGrabSql {
  private final List<String> filters = new ArrayList<>();
  private final Map<String, Object> values = new LinkedHashMap<>();
  private final List<String> returnBounds = new ArrayList<>();
  private final Map<String, Object> returnValues = new LinkedHashMap<>();

  /**
   * Per visit status that cools, the threshold its cooldown puts on the visit's end; null if off.
   */
  private final Map<LastVisitStatus, Instant> coolingBounds = new EnumMap<>(LastVisitStatus.class);

  private final String order;
  private final DialectSql dialect;

  /** The percentage of the table the choice samples, or null for all of it. */
  private Double samplePercent;

  private VisitGrabSql(DialectSql dialect, VisitPolicy policy) {
    this.dialect = dialect;
    this.order = VisitPolicySql.order(policy);
    add(VisitPolicySql.filter(policy));
  }

  /**
   * The query for request {@code r} at {@code now}.
   *
   * @param listerIds the listers the request narrows to (empty: no lister filter)
   * @param listingFinished for {@code first_visits_after_listing}: when the lister's last listing
   *     finished, or null
   */
  static VisitGrabSql of(
      DialectSql dialect,
      VisitRequest r,
      Instant now,
      List<String> listerIds,
      Instant listingFinished) {
    VisitGrabSql q = new VisitGrabSql(dialect, r.policy());
    if (r.policy() == VisitPolicy.FIRST_VISITS_AFTER_LISTING) {
      if (listingFinished == null) {
        q.add("last_scheduled IS NULL");
      } else {
        q.add("(last_scheduled IS NULL OR last_scheduled < :listing_finished)");
        q.values.put("listing_finished", listingFinished);
      }
    }
    q.cooldowns(r.cooldowns(), now);
    if (!listerIds.isEmpty()) {
      List<String> names = new ArrayList<>();
      for (int i = 0; i < listerIds.size(); i++) {
        names.add(":lister_" + i);
        q.values.put("lister_" + i, listerIds.get(i));
      }
      q.add("lister_id IN (" + String.join(", ", names) + ")");
    }
    q.samplePercent = r.tablesample();
    return q;
  }

  /** The reference's cooldown clauses; each compares with a threshold computed here from now. */
  private void cooldowns(Cooldowns c, Instant now) {
    // An origin awaiting its visit has no result newer than its scheduling, so for it both time
    // cooldowns come down to a bound on when it was handed out.
    if (c.absolute() != null) {
      add("(last_scheduled IS NULL OR last_scheduled < :absolute_before)");
      values.put("absolute_before", before(now, c.absolute()));
      returnBound("absolute_before");
    }
    if (c.scheduled() != null) {
      // last_scheduled < greatest(now - scheduled, last_visit), NULL last_visit ignored: eligible
      // again once a visit result newer than the scheduling came back, or after the cooldown.
      add(
          "(last_scheduled IS NULL OR last_scheduled < :scheduled_before OR last_scheduled < "
              + "last_visit)");
      values.put("scheduled_before", before(now, c.scheduled()));
      returnBound("scheduled_before");
    }
    // An origin cooling after such a visit has cooling_since = last_visit (V018), so the same
    // threshold bounds its return; with the cooldown off, every such origin returns.
    coolingBounds.put(LastVisitStatus.FAILED, c.failed() == null ? null : before(now, c.failed()));
    coolingBounds.put(
        LastVisitStatus.NOT_FOUND, c.notFound() == null ? null : before(now, c.notFound()));
    if (c.failed() != null) {
      add("(last_visit_status IS DISTINCT FROM 'failed' OR last_visit < :failed_before)");
      values.put("failed_before", before(now, c.failed()));
    }
    if (c.notFound() != null) {
      add("(last_visit_status IS DISTINCT FROM 'not_found' OR last_visit < :not_found_before)");
      values.put("not_found_before", before(now, c.notFound()));
    }
  }

  /** The return's bound on when an awaiting origin was handed out: the cooldown's threshold. */
  private void returnBound(String name) {
    returnBounds.add("awaiting_visit_since < :" + name);
    returnValues.put(name, values.get(name));
  }

  private static Instant before(Instant now, Duration cooldown) {
    return now.minus(cooldown);
  }

  private void add(String clause) {
    if (!clause.isEmpty()) {
      filters.add(clause);
    }
  }

  /** The choice's template. */
  SqlQuery template() {
    return samplePercent == null ? VISIT_GRAB : VISIT_GRAB_SAMPLED;
  }

  /**
   * Whether the choice walks the policy's index, which holds no origin awaiting a visit, so that
   * the awaiting ones whose cooldowns have ended must be returned to it first. A sample reads pages
   * (rowid blocks on SQLite).
   */
  boolean walksPolicyIndex() {
    return template() == VISIT_GRAB;
  }

  <S extends SqlStatement<S>> S bindReturn(S statement, VisitRequest r) {
    statement.define("bounds", clauses(returnBounds)).bind("visit_type", r.visitType());
    returnValues.forEach(statement::bind);
    return statement;
  }

  /**
   * The visit statuses whose cooling origins a grab returns before choosing ({@code
   * visitReturnCooled.sql}), each bound by {@link #bindReturnCooled}.
   */
  Iterable<LastVisitStatus> coolingStatuses() {
    return coolingBounds.keySet();
  }

  <S extends SqlStatement<S>> S bindReturnCooled(
      S statement, VisitRequest r, LastVisitStatus status) {
    Instant bound = coolingBounds.get(status);
    statement
        .define("bound", bound == null ? "" : "AND cooling_since < :cooled_before")
        .bind("visit_type", r.visitType())
        .bind("status", status.dbName());
    if (bound != null) {
      statement.bind("cooled_before", bound);
    }
    return statement;
  }

  Query bind(Query query, VisitRequest r) {
    query
        .define("filters", clauses(filters))
        .define("order", order)
        .bind("visit_type", r.visitType())
        .bind("enabled", r.enabled())
        .bind("count", r.count());
    values.forEach(query::bind);
    if (samplePercent != null) {
      // Drawn anew for each statement, in its transaction (SQLite reads the table's extent).
      dialect.bindSample(query, samplePercent);
    }
    return query;
  }

  private static String clauses(List<String> clauses) {
    return clauses.stream().map(c -> "AND " + c).reduce((a, b) -> a + "\n  " + b).orElse("");
  }
}
