package dev.drover.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.statement.DefaultStatementBuilder;
import org.jdbi.v3.core.statement.StatementBuilder;
import org.jdbi.v3.core.statement.StatementBuilderFactory;
import org.jdbi.v3.core.statement.StatementContext;
import org.sqlite.SQLiteConnection;

/**
 * Keeps SQLite's prepared statements for reuse, per connection: sqlite-jdbc compiles every
 * statement anew, which for a one-task insert cost about as much as running it. Jdbi asks this
 * builder for each statement and hands it back when done; an idle statement waits for the next
 * request with the same text on the same connection.
 *
 * <p>Statements are prepared on the driver's own connection under the pool's proxy, so the pool
 * does not close them each time it takes the connection back; SQLite finalizes them when the
 * connection itself closes, and the cache of a closed connection is dropped when a new connection
 * first asks. A statement is lent out to one caller at a time: a second request with the same text
 * while the first is open gets a fresh statement, and whichever comes back second is closed.
 */
final class SqliteStatementCache implements StatementBuilderFactory {
  /**
   * Distinct statement texts kept per connection; the least recently used one is closed beyond it.
   */
  static final int PER_CONNECTION = 64;

  private final Map<SQLiteConnection, Idle> idleByConnection = new ConcurrentHashMap<>();

  @Override
  public StatementBuilder createStatementBuilder(Connection conn) {
    return new Builder();
  }

  private Idle idleOf(SQLiteConnection physical) throws SQLException {
    Idle idle = idleByConnection.get(physical);
    if (idle == null) {
      for (SQLiteConnection c : idleByConnection.keySet()) {
        if (c.isClosed()) {
          idleByConnection.remove(c);
        }
      }
      idle = idleByConnection.computeIfAbsent(physical, c -> new Idle());
    }
    return idle;
  }

  /**
   * A prepared statement of {@code sql} (positional parameters) on {@code conn}'s driver
   * connection: an idle one if there is, else a new one. Hand it back with {@link #giveBack}.
   */
  PreparedStatement borrow(Connection conn, String sql) throws SQLException {
    SQLiteConnection physical = conn.unwrap(SQLiteConnection.class);
    PreparedStatement stmt = idleOf(physical).remove(sql);
    if (stmt == null || stmt.isClosed()) {
      stmt = physical.prepareStatement(sql);
    }
    return stmt;
  }

  /** Keeps {@code stmt}, borrowed for {@code sql} on {@code conn}, for the next borrower. */
  void giveBack(Connection conn, String sql, PreparedStatement stmt) throws SQLException {
    if (stmt.isClosed()) {
      return;
    }
    // A batch that failed before it executed leaves its rows behind: the next batch on this
    // statement would run them again, so both go.
    stmt.clearBatch();
    stmt.clearParameters();
    PreparedStatement displaced = idleOf(conn.unwrap(SQLiteConnection.class)).put(sql, stmt);
    if (displaced != null && displaced != stmt) {
      displaced.close();
    }
  }

  /** One per handle, so one thread at a time. */
  private final class Builder extends DefaultStatementBuilder {
    /**
     * The text each lent statement was prepared from: Jdbi hands a statement back with the text as
     * written (named parameters), not the rendered text it was created with.
     */
    private final Map<Statement, String> lent = new IdentityHashMap<>();

    @Override
    public PreparedStatement create(Connection conn, String sql, StatementContext ctx)
        throws SQLException {
      if (ctx.isReturningGeneratedKeys() || ctx.isConcurrentUpdatable()) {
        return super.create(conn, sql, ctx);
      }
      PreparedStatement stmt = borrow(conn, sql);
      lent.put(stmt, sql);
      return stmt;
    }

    @Override
    public void close(Connection conn, String sql, Statement stmt) throws SQLException {
      String prepared = lent.remove(stmt);
      if (prepared == null || stmt.isClosed()) {
        super.close(conn, sql, stmt); // not one of ours, or already done with
        return;
      }
      giveBack(conn, prepared, (PreparedStatement) stmt);
    }
  }

  /**
   * The idle statements of one connection, least recently used first. Only the thread holding the
   * connection touches it, one at a time, so it needs no lock of its own.
   */
  private static final class Idle extends LinkedHashMap<String, PreparedStatement> {
    Idle() {
      super(16, 0.75f, true);
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
      if (size() <= PER_CONNECTION) {
        return false;
      }
      try {
        eldest.getValue().close();
      } catch (SQLException e) {
        // Closing an idle statement cannot lose data; the connection finalizes it at the latest.
      }
      return true;
    }
  }
}
