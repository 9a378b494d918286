package dev.drover.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.ColonPrefixSqlParser;
import org.jdbi.v3.core.statement.ParsedSql;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * One statement of a SQL file run as a JDBC batch on SQLite, its rows bound with plain JDBC. On a
 * runner's pass Jdbi's binding (an argument lookup and a described argument per value, each instant
 * formatted as text) cost more than SQLite's own work, so the hottest batches skip it. The file's
 * named parameters become positions once per text; the statement is lent by the connection's {@link
 * SqliteStatementCache} and the store's {@link StoreProbe} sees the statement as it sees Jdbi's.
 * Instants are bound as SQLite stores them, INTEGER milliseconds.
 *
 * <p>Use: {@link Factory#open}, then per row the setters and {@link #add}, then {@link #execute},
 * in try-with-resources.
 */
final class SqliteBatch implements AutoCloseable {
  private final Handle handle;
  private final Factory factory;
  private final Positional sql;
  private final PreparedStatement statement;
  private final StoreProbe probe;

  private SqliteBatch(Handle handle, Factory factory, Positional sql, PreparedStatement statement) {
    this.handle = handle;
    this.factory = factory;
    this.sql = sql;
    this.statement = statement;
    this.probe = factory.probe;
  }

  /** Lends batches of the store's SQL files, one text parsed once. */
  static final class Factory {
    private final SqlFiles files;
    private final SqliteStatementCache cache;
    private final StoreProbe probe;
    private final Map<SqlQuery, Positional> parsed = new ConcurrentHashMap<>();

    /**
     * @param cache lends the statements, or null to prepare each batch's anew (on a pool the
     *     application lends, whose connections the store does not keep statements on)
     */
    Factory(SqlFiles files, SqliteStatementCache cache, StoreProbe probe) {
      this.files = files;
      this.cache = cache;
      this.probe = probe;
    }

    /** A batch of {@code query} on {@code h}'s connection, in its transaction. */
    SqliteBatch open(Handle h, SqlQuery query) {
      Positional sql = parsed.computeIfAbsent(query, q -> Positional.of(q, files.get(q)));
      try {
        Connection c = h.getConnection();
        PreparedStatement statement =
            cache == null ? c.prepareStatement(sql.text()) : cache.borrow(c, sql.text());
        return new SqliteBatch(h, this, sql, statement);
      } catch (SQLException e) {
        throw new UnableToExecuteStatementException(e, null);
      }
    }
  }

  /** A file's text with {@code ?} for its parameters, and where each named one goes. */
  private record Positional(String name, String text, Map<String, int[]> positions) {
    static Positional of(SqlQuery query, String named) {
      ParsedSql parsed = new ColonPrefixSqlParser().parse(named, null);
      Map<String, List<Integer>> at = new HashMap<>();
      List<String> names = parsed.getParameters().getParameterNames();
      for (int i = 0; i < names.size(); i++) {
        at.computeIfAbsent(names.get(i), n -> new ArrayList<>()).add(i + 1);
      }
      Map<String, int[]> positions = new HashMap<>();
      at.forEach((n, p) -> positions.put(n, p.stream().mapToInt(Integer::intValue).toArray()));
      return new Positional(query.fileName(), parsed.getSql(), Map.copyOf(positions));
    }

    int[] of(String parameter) {
      int[] p = positions.get(parameter);
      if (p == null) {
        throw new IllegalArgumentException("query " + name + " has no parameter :" + parameter);
      }
      return p;
    }
  }

  SqliteBatch setLong(String parameter, long value) {
    try {
      for (int i : sql.of(parameter)) {
        statement.setLong(i, value);
      }
    } catch (SQLException e) {
      throw failed(e);
    }
    return this;
  }

  /** A number, or SQL NULL for null. */
  SqliteBatch setLong(String parameter, Long value) {
    return value == null ? setNull(parameter, Types.BIGINT) : setLong(parameter, value.longValue());
  }

  /** INTEGER milliseconds, or SQL NULL for null. */
  SqliteBatch setInstant(String parameter, Instant value) {
    return value == null
        ? setNull(parameter, Types.BIGINT)
        : setLong(parameter, value.toEpochMilli());
  }

  SqliteBatch setString(String parameter, String value) {
    if (value == null) {
      return setNull(parameter, Types.VARCHAR);
    }
    try {
      for (int i : sql.of(parameter)) {
        statement.setString(i, value);
      }
    } catch (SQLException e) {
      throw failed(e);
    }
    return this;
  }

  private SqliteBatch setNull(String parameter, int type) {
    try {
      for (int i : sql.of(parameter)) {
        statement.setNull(i, type);
      }
    } catch (SQLException e) {
      throw failed(e);
    }
    return this;
  }

  /** 1 or 0, or SQL NULL for null, as SQLite stores a boolean. */
  SqliteBatch setBoolean(String parameter, Boolean value) {
    return value == null ? setNull(parameter, Types.BOOLEAN) : setLong(parameter, value ? 1 : 0);
  }

  /**
   * Runs the row bound so far on its own (instead of {@link #add}) and maps the one row its {@code
   * RETURNING} clause gives back: in process, a statement per row costs no round trip, and it
   * spares reading the written rows again.
   */
  <T> T executeReturning(RowMapper<T> mapper) {
    probe.beforeStatement(sql.name());
    try (ResultSet rs = statement.executeQuery()) {
      if (!rs.next()) {
        throw new IllegalStateException("query " + sql.name() + " returned no row");
      }
      return mapper.map(rs, null);
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /**
   * Runs the row bound so far on its own (instead of {@link #add}) and maps every row its {@code
   * RETURNING} clause gives back, in order.
   */
  <T> List<T> executeReturningAll(RowMapper<T> mapper) {
    probe.beforeStatement(sql.name());
    try (ResultSet rs = statement.executeQuery()) {
      List<T> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(mapper.map(rs, null));
      }
      return rows;
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /** Ends the row being bound. */
  void add() {
    try {
      statement.addBatch();
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /** Runs the rows added; returns each row's count of changed rows, in order. */
  int[] execute() {
    probe.beforeStatement(sql.name());
    try {
      return statement.executeBatch();
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  /** Hands the statement back for reuse (a batch not executed is cleared), or closes it. */
  @Override
  public void close() {
    try {
      if (factory.cache == null) {
        statement.close();
      } else {
        factory.cache.giveBack(handle.getConnection(), sql.text(), statement);
      }
    } catch (SQLException e) {
      throw failed(e);
    }
  }

  private RuntimeException failed(SQLException e) {
    return new UnableToExecuteStatementException(
        "query " + sql.name() + " failed: " + e.getMessage(), e, null);
  }
}
