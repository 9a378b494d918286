package dev.drover.store;

import static dev.drover.store.SqlQuery.LISTER_GET_BY_IDS;

import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.OriginPage;
import dev.drover.frontier.OriginQuery;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Recording what listers list, and reading it back page by page. How a batch is written is the
 * dialect's ({@link DialectSql#recordOrigins}).
 */
final class OriginRecords {
  private final Jdbi jdbi;
  private final DialectSql dialect;
  private final SqlFiles sql;
  private final FrontierRows rows;
  private final VisitTypeLocks locks;

  OriginRecords(Jdbi jdbi, DialectSql dialect, FrontierRows rows, VisitTypeLocks locks) {
    this.jdbi = jdbi;
    this.dialect = dialect;
    this.sql = dialect.files();
    this.rows = rows;
    this.locks = locks;
  }

  /** What identifies a listed origin. */
  record Key(UUID listerId, String url, String visitType) {
    static Key of(ListedOrigin o) {
      return new Key(o.listerId(), o.url(), o.visitType());
    }
  }

  List<ListedOrigin> record(List<ListedOrigin> origins, Instant now) {
    if (origins.isEmpty()) {
      return List.of();
    }
    // Duplicates collapse to the last one given, kept at the place of the first.
    Map<Key, ListedOrigin> distinct = new LinkedHashMap<>();
    origins.forEach(o -> distinct.put(Key.of(o), o));
    return jdbi.inTransaction(
        h -> {
          locks.lockForRecording(
              h,
              distinct.keySet().stream().map(Key::visitType).toList(),
              distinct.keySet().stream().map(Key::listerId).toList());
          checkListersExist(h, distinct.values());
          return dialect.recordOrigins(h, List.copyOf(distinct.values()), now, rows);
        });
  }

  private void checkListersExist(Handle h, Iterable<ListedOrigin> origins) {
    Set<String> wanted = new HashSet<>();
    origins.forEach(o -> wanted.add(FrontierRows.text(o.listerId())));
    Set<String> known =
        new HashSet<>(
            h
                .createQuery(sql.get(LISTER_GET_BY_IDS))
                .bindList("ids", List.copyOf(wanted))
                .map(rows.lister)
                .list()
                .stream()
                .map(l -> FrontierRows.text(l.id()))
                .toList());
    wanted.removeAll(known);
    if (!wanted.isEmpty()) {
      throw new ValidationException(
          "lister_id", "unknown lister " + wanted.stream().sorted().toList());
    }
  }

  OriginPage list(OriginQuery q) {
    OriginListSql query = OriginListSql.of(q);
    List<ListedOrigin> page =
        jdbi.withHandle(h -> query.bind(h.createQuery(query.sql())).map(rows.listedOrigin).list());
    if (page.size() <= q.limit()) {
      return new OriginPage(page, null);
    }
    ListedOrigin last = page.get(q.limit() - 1);
    String next =
        new OriginPageToken(FrontierRows.text(last.listerId()), last.url(), last.visitType())
            .toString();
    return new OriginPage(page.subList(0, q.limit()), next);
  }
}
