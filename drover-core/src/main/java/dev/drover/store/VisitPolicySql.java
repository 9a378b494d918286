package dev.drover.store;

import dev.drover.frontier.VisitPolicy;

/**
 * Each visit policy's filter and order, as SQL over listed_origin (whose rows hold a listed
 * origin's visit stats, see V028 and V029). Each filter contains its index's partial predicate, and
 * each order is its index's order, so the grab walks one index and stops after {@code count} rows.
 * Ties are left in index order: a tie-breaker the index lacks would make the database read and sort
 * a whole tie group (every never-scheduled origin, say) before returning the first row.
 */
final class VisitPolicySql {
  private VisitPolicySql() {}

  /** The policy's own filter, ANDed to the others; empty when it has none. */
  static String filter(VisitPolicy policy) {
    return switch (policy) {
      case OLDEST_SCHEDULED_FIRST -> "";
      // listed_origin_grab_stop_after_success
      case STOP_AFTER_SUCCESS -> "last_visit_status IS DISTINCT FROM 'successful'";
      // listed_origin_grab_never_visited
      case NEVER_VISITED_OLDEST_UPDATE_FIRST -> "last_snapshot IS NULL AND last_update IS NOT NULL";
      // listed_origin_grab_by_lag
      case ALREADY_VISITED_ORDER_BY_LAG ->
          "last_snapshot IS NOT NULL AND last_update > last_successful";
      // listed_origin_grab_without_last_update
      case ORIGINS_WITHOUT_LAST_UPDATE -> "last_update IS NULL";
      // Depends on the lister's last listing: see VisitGrabSql.
      case FIRST_VISITS_AFTER_LISTING -> "";
    };
  }

  static String order(VisitPolicy policy) {
    return switch (policy) {
      // listed_origin_grab_oldest_scheduled, listed_origin_grab_first_visits
      case OLDEST_SCHEDULED_FIRST, FIRST_VISITS_AFTER_LISTING -> "last_scheduled ASC NULLS FIRST";
      case STOP_AFTER_SUCCESS -> "last_update ASC NULLS LAST, first_seen ASC";
      case NEVER_VISITED_OLDEST_UPDATE_FIRST -> "last_update ASC";
      // The visit lag: how long the forge has had changes the archive lacks.
      case ALREADY_VISITED_ORDER_BY_LAG -> "(last_update - last_successful) DESC";
      case ORIGINS_WITHOUT_LAST_UPDATE ->
          "next_visit_queue_position ASC NULLS FIRST, first_seen ASC";
    };
  }
}
