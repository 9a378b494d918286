package dev.drover.store;

import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * A SQLite store in a directory of its own, for the SQLite plan tests (what {@link PlanDatabase} is
 * for PostgreSQL's): the store to fill, a Jdbi on its file, and the query plan of a store's SQL
 * file, read without statistics and with them.
 */
final class SqlitePlanStore implements AutoCloseable {
  final Store store;
  final Jdbi jdbi;
  private final SqlFiles sql = new SqlFiles(Dialect.SQLITE);

  SqlitePlanStore(Path dir) {
    store = Stores.open(StoreLocation.dataDir(dir));
    jdbi = Jdbi.create(store.dataSource().orElseThrow());
  }

  /**
   * EXPLAIN QUERY PLAN of {@code query}'s file, bound by {@code bind}: one line per step, its
   * parent's id, a space, then its detail.
   */
  List<String> plan(SqlQuery query, UnaryOperator<Query> bind) {
    return jdbi.withHandle(
        h ->
            bind.apply(h.createQuery("EXPLAIN QUERY PLAN " + sql.get(query)))
                .map((rs, ctx) -> rs.getString("parent") + " " + rs.getString("detail"))
                .list());
  }

  /** Runs {@code check} with the store analyzed, then forgets the statistics again. */
  void analyzed(Runnable check) {
    jdbi.useHandle(h -> h.execute("ANALYZE"));
    try {
      check.run();
    } finally {
      jdbi.useHandle(h -> h.execute("DROP TABLE IF EXISTS sqlite_stat1"));
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
