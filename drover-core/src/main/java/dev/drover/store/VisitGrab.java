package dev.drover.store;

import static dev.drover.store.SqlQuery.VISIT_QUEUE_POSITION_ADVANCE;
import static dev.drover.store.SqlQuery.VISIT_RETURN_AWAITING;
import static dev.drover.store.SqlQuery.VISIT_RETURN_COOLED;

import dev.drover.ValidationException;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import dev.drover.store.FrontierRows.Grabbed;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Grab next visits: choose origins by a policy, then (unless a dry run) record that they were
 * scheduled, all in one transaction. Grabs of one visit type take turns ({@link VisitTypeLocks}),
 * so each sees what the previous one scheduled and two grabs never hand out the same row at once. A
 * dry run does the same steps and rolls them back.
 */
final class VisitGrab {
  private final Jdbi jdbi;
  private final DialectSql dialect;
  private final SqlFiles sql;
  private final FrontierRows rows;
  private final VisitTypeLocks locks;

  VisitGrab(Jdbi jdbi, DialectSql dialect, FrontierRows rows, VisitTypeLocks locks) {
    this.jdbi = jdbi;
    this.dialect = dialect;
    this.sql = dialect.files();
    this.rows = rows;
    this.locks = locks;
  }

  List<ListedOrigin> grab(VisitRequest r, Instant now) {
    return jdbi.inTransaction(
        h -> {
          if (!r.dryRun()) {
            return grab(h, r, now);
          }
          // A dry run takes the lock too: it returns awaiting origins to the policy's index as a
          // grab does (see choose), then rolls back.
          locks.lock(h, List.of(r.visitType()));
          List<Grabbed> chosen = choose(h, r, now);
          h.rollback();
          return chosen.stream().map(Grabbed::origin).toList();
        });
  }

  /** Grabs {@code r} (not a dry run) in the transaction open on {@code h}. */
  List<ListedOrigin> grab(Handle h, VisitRequest r, Instant now) {
    locks.lock(h, List.of(r.visitType()));
    List<Grabbed> chosen = choose(h, r, now);
    if (!chosen.isEmpty()) {
      markScheduled(h, r, chosen, now);
    }
    return chosen.stream().map(Grabbed::origin).toList();
  }

  /** The database's plan for choosing {@code r}'s origins, run as a dry run would be. */
  List<String> plan(VisitRequest r, Instant now) {
    return jdbi.inTransaction(
        h -> {
          locks.lock(h, List.of(r.visitType()));
          VisitGrabSql query = returnOriginsPastCooldown(h, r, now);
          List<String> plan = dialect.plan(h, sql.get(query.template()), q -> query.bind(q, r));
          h.rollback();
          return plan;
        });
  }

  private List<Grabbed> choose(Handle h, VisitRequest r, Instant now) {
    VisitGrabSql query = returnOriginsPastCooldown(h, r, now);
    if (r.count() == 0) {
      return List.of();
    }
    return query.bind(h.createQuery(sql.get(query.template())), r).map(rows.grabbed).list();
  }

  /**
   * The request's query, after the origins awaiting a visit or cooling after a failed or not-found
   * one whose cooldowns have ended for this request went back into the policy indexes, so that the
   * choice takes them in the policy's order (see
   * V016__grab_indexes_skip_origins_awaiting_a_visit.sql and
   * V018__grab_indexes_skip_origins_cooling_after_a_failed_visit.sql).
   */
  private VisitGrabSql returnOriginsPastCooldown(Handle h, VisitRequest r, Instant now) {
    List<Lister> listers = r.filtersListers() ? matchingListers(h, r) : List.of();
    VisitGrabSql query = query(r, now, listers);
    if (query.walksPolicyIndex() && r.count() > 0) {
      query.bindReturn(h.createUpdate(sql.get(VISIT_RETURN_AWAITING)), r).execute();
      for (LastVisitStatus status : query.coolingStatuses()) {
        query.bindReturnCooled(h.createUpdate(sql.get(VISIT_RETURN_COOLED)), r, status).execute();
      }
    }
    return query;
  }

  private VisitGrabSql query(VisitRequest r, Instant now, List<Lister> listers) {
    // The request's validation guarantees one lister here (an id, or a name and an instance).
    Instant listingFinished =
        r.policy() == VisitPolicy.FIRST_VISITS_AFTER_LISTING
            ? listers.get(0).lastListingFinishedAt()
            : null;
    List<String> listerIds = listers.stream().map(l -> FrontierRows.text(l.id())).toList();
    return VisitGrabSql.of(dialect, r, now, listerIds, listingFinished);
  }

  private List<Lister> matchingListers(Handle h, VisitRequest r) {
    Where where =
        new Where()
            .eq("id = :id", "id", FrontierRows.text(r.listerId()))
            .eq("name = :name", "name", r.listerName())
            .eq("instance_name = :instance_name", "instance_name", r.listerInstanceName());
    List<Lister> found =
        where.bind(h.createQuery("SELECT * FROM lister" + where.sql())).map(rows.lister).list();
    if (found.isEmpty()) {
      throw new ValidationException(
          "lister",
          "no lister has"
              + (r.listerId() == null ? "" : " id " + r.listerId())
              + (r.listerName() == null ? "" : " name '" + r.listerName() + "'")
              + (r.listerInstanceName() == null
                  ? ""
                  : " instance '" + r.listerInstanceName() + "'"));
    }
    return found;
  }

  /**
   * Records {@code now} as last_scheduled of each chosen origin (once per url, whichever listers
   * listed it), wherever the dialect keeps its stats; origins_without_last_update also moves the
   * visit type's queue position up to the furthest position chosen.
   */
  private void markScheduled(Handle h, VisitRequest r, List<Grabbed> chosen, Instant now) {
    List<String> urls = chosen.stream().map(g -> g.origin().url()).distinct().toList();
    dialect.markScheduled(h, r.visitType(), urls, now);
    if (r.policy() == VisitPolicy.ORIGINS_WITHOUT_LAST_UPDATE) {
      long furthest =
          chosen.stream()
              .map(Grabbed::queuePosition)
              .filter(Objects::nonNull)
              .mapToLong(Long::longValue)
              .max()
              .orElse(0);
      h.createUpdate(sql.get(VISIT_QUEUE_POSITION_ADVANCE))
          .bind("visit_type", r.visitType())
          .bind("position", furthest)
          .execute();
    }
  }
}
