package dev.drover.store;

import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.OriginPage;
import dev.drover.frontier.OriginQuery;
import dev.drover.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Recording what listers list, and reading it back page by page. A batch is recorded in one
 * statement on PostgreSQL, where every statement is a round trip, and by a prepared statement per
 * origin on SQLite, which runs in process.
 */
final class OriginRecords {
  private final Jdbi jdbi;
  private final Dialect dialect;
  private final SqlFiles sql;
  private final FrontierRows rows;
  private final VisitTypeLocks locks;

  OriginRecords(Jdbi jdbi, Dialect dialect, SqlFiles sql, FrontierRows rows, VisitTypeLocks locks) {
    this.jdbi = jdbi;
    this.dialect = dialect;
    this.sql = sql;
    this.rows = rows;
    this.locks = locks;
  }

  private record Key(UUID listerId, String url, String visitType) {
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
    return jdbi.inTransaction(h -> {
      locks.lock(h, distinct.keySet().stream().map(Key::visitType).toList());
      checkListersExist(h, distinct.values());
      return dialect == Dialect.POSTGRESQL ? upsertAll(h, distinct, now) : upsertEach(h, distinct, now);
    });
  }

  private List<ListedOrigin> upsertAll(Handle h, Map<Key, ListedOrigin> distinct, Instant now) {
    List<ListedOrigin> in = List.copyOf(distinct.values());
    Map<Key, ListedOrigin> stored = new LinkedHashMap<>();
    h.createQuery(sql.get("originRecordBatch"))
        .bindArray("lister_ids", String.class, in.stream().map(o -> FrontierRows.text(o.listerId())).toList())
        .bindArray("urls", String.class, in.stream().map(ListedOrigin::url).toList())
        .bindArray("visit_types", String.class, in.stream().map(ListedOrigin::visitType).toList())
        .bindArray("extra_loader_arguments", String.class,
            in.stream().map(o -> Json.canonical(o.extraLoaderArguments())).toList())
        .bindArray("enabled", Boolean.class, in.stream().map(ListedOrigin::enabled).toList())
        .bindArray("last_update_ms", Long.class,
            in.stream().map(o -> o.lastUpdate() == null ? null : o.lastUpdate().toEpochMilli()).toList())
        .bindArray("is_fork", Boolean.class, in.stream().map(ListedOrigin::isFork).toList())
        .bindArray("forked_from_urls", String.class, in.stream().map(ListedOrigin::forkedFromUrl).toList())
        .bind("now", now)
        .map(rows.listedOrigin).forEach(o -> stored.put(Key.of(o), o));
    return distinct.keySet().stream().map(stored::get).toList();
  }

  private List<ListedOrigin> upsertEach(Handle h, Map<Key, ListedOrigin> distinct, Instant now) {
    PreparedBatch batch = h.prepareBatch(sql.get("originUpsert"));
    for (ListedOrigin o : distinct.values()) {
      batch.bind("lister_id", FrontierRows.text(o.listerId()))
          .bind("url", o.url())
          .bind("visit_type", o.visitType())
          .bind("extra_loader_arguments", Json.canonical(o.extraLoaderArguments()))
          .bind("enabled", o.enabled())
          .bind("now", now)
          .bindByType("last_update", o.lastUpdate(), Instant.class)
          .bindByType("is_fork", o.isFork(), Boolean.class)
          .bind("forked_from_url", o.forkedFromUrl())
          .add();
    }
    batch.execute();
    return readBack(h, distinct);
  }

  private void checkListersExist(Handle h, Iterable<ListedOrigin> origins) {
    Set<String> wanted = new HashSet<>();
    origins.forEach(o -> wanted.add(FrontierRows.text(o.listerId())));
    Set<String> known = new HashSet<>(h.createQuery(sql.get("listerGetByIds")).bindList("ids", List.copyOf(wanted))
        .map(rows.lister).list().stream().map(l -> FrontierRows.text(l.id())).toList());
    wanted.removeAll(known);
    if (!wanted.isEmpty()) {
      throw new ValidationException("lister_id", "unknown lister " + wanted.stream().sorted().toList());
    }
  }

  private List<ListedOrigin> readBack(Handle h, Map<Key, ListedOrigin> wanted) {
    Map<Key, List<String>> urlsByGroup = new LinkedHashMap<>();
    wanted.keySet().forEach(k -> urlsByGroup.computeIfAbsent(new Key(k.listerId(), null, k.visitType()),
        g -> new ArrayList<>()).add(k.url()));
    Map<Key, ListedOrigin> stored = new LinkedHashMap<>();
    urlsByGroup.forEach((group, urls) -> {
      for (List<String> chunk : FrontierRows.chunks(urls, FrontierRows.IN_LIST)) {
        h.createQuery(sql.get("originGetByKeys"))
            .bind("lister_id", FrontierRows.text(group.listerId())).bind("visit_type", group.visitType())
            .bindList("urls", chunk)
            .map(rows.listedOrigin).forEach(o -> stored.put(Key.of(o), o));
      }
    });
    return wanted.keySet().stream().map(stored::get).toList();
  }

  OriginPage list(OriginQuery q) {
    OriginListSql query = OriginListSql.of(q);
    List<ListedOrigin> page = jdbi.withHandle(h ->
        query.bind(h.createQuery(query.sql())).map(rows.listedOrigin).list());
    if (page.size() <= q.limit()) {
      return new OriginPage(page, null);
    }
    ListedOrigin last = page.get(q.limit() - 1);
    String next = new OriginPageToken(FrontierRows.text(last.listerId()), last.url(), last.visitType()).toString();
    return new OriginPage(page.subList(0, q.limit()), next);
  }
}
