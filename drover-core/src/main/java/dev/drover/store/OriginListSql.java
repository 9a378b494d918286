package dev.drover.store;

import dev.drover.frontier.OriginQuery;
import java.util.List;
import org.jdbi.v3.core.statement.Query;

/**
 * The origin listing's SQL for one query: fixed filter fragments, and a keyset on the whole primary
 * key (lister, url, visit type) after the page token, so the primary key serves both the filter and
 * the order. Asks for one row more than the page to know whether another page follows.
 */
final class OriginListSql {
  private final Where where;
  private final OriginPageToken after;
  private final int limit;

  private OriginListSql(Where where, OriginPageToken after, int limit) {
    this.where = where;
    this.after = after;
    this.limit = limit;
  }

  static OriginListSql of(OriginQuery q) {
    OriginPageToken after = OriginPageToken.parse(q.pageToken());
    Where where =
        new Where()
            .eq("lister_id = :lister_id", "lister_id", FrontierRows.text(q.listerId()))
            .eq("url = :url", "url", q.url())
            .in("url IN (<urls>)", "urls", q.url() == null ? q.urls() : List.of())
            .eq("enabled = :enabled", "enabled", q.enabled())
            // The whole key, visit type included: rows sharing a lister and a url straddle pages
            // safely.
            // Where binds one value per clause; the other two are bound in bind().
            .eq(
                "(lister_id, url, visit_type) > (:after_lister, :after_url, :after_visit_type)",
                "after_lister",
                after == null ? null : after.listerId());
    return new OriginListSql(where, after, q.limit());
  }

  String sql() {
    return "SELECT * FROM listed_origin"
        + where.sql()
        + " ORDER BY lister_id, url, visit_type LIMIT :limit";
  }

  Query bind(Query query) {
    where.bind(query);
    if (after != null) {
      query.bind("after_url", after.url()).bind("after_visit_type", after.visitType());
    }
    return query.bind("limit", limit + 1);
  }
}
