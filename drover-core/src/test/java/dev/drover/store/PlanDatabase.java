package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.TaskType;
import dev.drover.testing.PostgresTemplate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * A migrated PostgreSQL database for the plan tests: a store on it with the given task types, plain
 * SQL to fill it, and EXPLAIN of the store's own SQL files, bound as the store binds them.
 */
final class PlanDatabase implements AutoCloseable {
  private final SqlFiles sql = new SqlFiles(Dialect.POSTGRESQL);
  private final PostgresSql dialect = new PostgresSql(sql);
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
    jdbi.registerArgument(new InstantArgumentFactory(dialect));
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

  /**
   * {@code lookup} (taskFindDuplicates) bound with {@code types} and {@code hashes} as the store
   * binds them.
   */
  Query bindDuplicateLookup(Query lookup, List<String> types, List<String> hashes) {
    dialect.bindDuplicateLookup(lookup, types, hashes);
    return lookup;
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

  /**
   * EXPLAIN of {@code query}'s file prepared on the server with its {@code parameters} (names as
   * the file writes them, each replaced by its position) of the given {@code types}, executed with
   * {@code arguments} (SQL literals) under {@code plan_cache_mode = force_generic_plan}: the plan
   * the server keeps for a statement it has prepared, chosen with no parameter value known.
   */
  String genericPlan(SqlQuery query, List<String> parameters, List<String> types, String arguments)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      prepare(s, query, parameters, types);
      return lines(s, "EXPLAIN EXECUTE planned (" + arguments + ")");
    }
  }

  /**
   * Prepares {@code query}'s file on {@code s}'s connection as "planned", its {@code parameters}
   * (names as the file writes them) replaced by their positions, of the given {@code types}, under
   * {@code plan_cache_mode = force_generic_plan}.
   */
  private void prepare(Statement s, SqlQuery query, List<String> parameters, List<String> types)
      throws SQLException {
    String text = sql.get(query);
    for (int i = 0; i < parameters.size(); i++) {
      text = text.replace(parameters.get(i), "$" + (i + 1));
    }
    s.execute("SET plan_cache_mode = force_generic_plan");
    s.execute("PREPARE planned (" + String.join(", ", types) + ") AS " + text);
  }

  /** The rows of {@code query}'s only column, a line each. */
  private static String lines(Statement s, String query) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(query)) {
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    return String.join("\n", lines);
  }

  /**
   * The generic plan of {@code query}'s file (prepared as {@link #genericPlan} prepares it) made
   * now, in a transaction that first runs {@code before}'s file if given, as the store would before
   * the statement; then {@code grow} runs on another connection, and EXPLAIN ANALYZE of the plan
   * the server kept, executed with {@code arguments}, is returned. A prepared statement keeps its
   * generic plan until the tables it reads are analyzed, so autovacuum is turned off for the task
   * table first.
   */
  String genericPlanAfterGrowth(
      SqlQuery before,
      SqlQuery query,
      List<String> parameters,
      List<String> types,
      String arguments,
      String grow)
      throws SQLException {
    execute("ALTER TABLE task SET (autovacuum_enabled = off)");
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      prepare(s, query, parameters, types);
      c.setAutoCommit(false);
      if (before != null) {
        s.execute(sql.get(before));
      }
      s.execute("EXPLAIN EXECUTE planned (" + arguments + ")"); // the plan is made here
      c.rollback();
      c.setAutoCommit(true);
      execute(grow);
      return lines(s, "EXPLAIN (ANALYZE, BUFFERS) EXECUTE planned (" + arguments + ")");
    }
  }

  /** {@code explain} (EXPLAIN with its options) of {@code query}'s file, bound, a line per row. */
  private String plan(Handle h, String explain, SqlQuery query, UnaryOperator<Query> bind) {
    return String.join(
        "\n", bind.apply(h.createQuery(explain + sql.get(query))).mapTo(String.class).list());
  }

  /**
   * Asserts that an EXPLAIN ANALYZE {@code plan} reads task_type and runs each of its scans once:
   * the type read once for a statement, not once per task.
   */
  static void assertTaskTypeReadOnce(String plan) {
    Matcher typeScans = Pattern.compile("on task_type .*loops=(\\d+)").matcher(plan);
    int scans = 0;
    while (typeScans.find()) {
      scans++;
      assertThat(Integer.parseInt(typeScans.group(1))).as(plan).isOne();
    }
    assertThat(scans).as(plan).isPositive();
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
