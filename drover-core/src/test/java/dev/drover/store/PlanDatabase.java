package dev.drover.store;

import dev.drover.model.TaskType;
import dev.drover.testing.PostgresTemplate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * A migrated PostgreSQL database for the plan tests: a store on it with the given task types, plain
 * SQL to fill it, and EXPLAIN of the store's own SQL files, bound as the store binds them.
 */
final class PlanDatabase implements AutoCloseable {
  private final SqlFiles sql = new SqlFiles(Dialect.POSTGRESQL);
  final Store store;
  private final String url;
  private final Jdbi jdbi;

  PlanDatabase(String... taskTypes) {
    url = PostgresTemplate.migratedUrl();
    store = Stores.open(StoreLocation.postgres(url));
    for (String type : taskTypes) {
      store.taskTypeCreate(TaskType.builder(type).build());
    }
    jdbi = Jdbi.create(url + "&stringtype=unspecified");
    jdbi.registerArgument(new InstantArgumentFactory(new PostgresSql(sql)));
  }

  /** Runs {@code statements} in order, each on its own, outside the store. */
  void execute(String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  /** EXPLAIN of {@code query}'s file, bound by {@code bind}: one line per plan row. */
  String explain(SqlQuery query, UnaryOperator<Query> bind) {
    return jdbi.withHandle(h -> plan(h, "EXPLAIN ", query, bind));
  }

  /**
   * EXPLAIN ANALYZE of {@code query}'s file, bound by {@code bind}, in a transaction rolled back
   * afterwards: what the statement did (rows, loops), not only what was planned, and nothing
   * written. {@code settings} are planner settings for that transaction ({@code SET LOCAL}). One
   * line per plan row.
   */
  String explainAnalyze(SqlQuery query, List<String> settings, UnaryOperator<Query> bind) {
    return jdbi.inTransaction(
        h -> {
          settings.forEach(setting -> h.execute("SET LOCAL " + setting));
          String plan = plan(h, "EXPLAIN ANALYZE ", query, bind);
          h.rollback();
          return plan;
        });
  }

  /** {@code explain} (EXPLAIN with its options) of {@code query}'s file, bound, a line per row. */
  private String plan(Handle h, String explain, SqlQuery query, UnaryOperator<Query> bind) {
    return String.join(
        "\n", bind.apply(h.createQuery(explain + sql.get(query))).mapTo(String.class).list());
  }

  /** The one number {@code countQuery} returns. */
  long count(String countQuery) {
    return jdbi.withHandle(h -> h.createQuery(countQuery).mapTo(Long.class).one());
  }

  @Override
  public void close() {
    store.close();
  }
}
