package dev.drover.store;

import dev.drover.ValidationException;
import java.sql.Connection;
import java.sql.SQLException;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Handles;
import org.jdbi.v3.core.Jdbi;

/**
 * Connections the application lends Drover inside its own open transactions: Drover writes on the
 * lent connection and neither commits, rolls back nor closes it, so its writes (and, on PostgreSQL,
 * the NOTIFY they queue) take effect only when the application commits.
 *
 * <p>One per store, with one Jdbi for every lent connection: each handle opens on the connection
 * its thread lent for the call. A new Jdbi per call parsed every statement afresh (its parsed-SQL
 * caches belong to the instance), which made a create on a lent connection five times slower than
 * one on the store's own pool.
 */
final class CallerConnection implements ConnectionFactory {
  private final ThreadLocal<Connection> lent = new ThreadLocal<>();
  private final Jdbi jdbi;

  /** Binds as the store's own Jdbi does. */
  CallerConnection(DialectSql dialect) {
    jdbi = Stores.configured(Jdbi.create(this), dialect);
    // The transaction is the application's: closing the handle must not end it.
    jdbi.getConfig(Handles.class).setForceEndTransactions(false);
  }

  /** Runs {@code callback} on a handle whose connection is {@code connection}. */
  <R> R withHandle(Connection connection, HandleCallback<R, RuntimeException> callback) {
    checkUsable(connection);
    lent.set(connection);
    try {
      return jdbi.withHandle(callback);
    } finally {
      lent.remove();
    }
  }

  private static void checkUsable(Connection connection) {
    ValidationException.check(connection != null, "connection", "is missing");
    try {
      ValidationException.check(
          !connection.isClosed(), "connection", "is closed; pass one inside an open transaction");
      ValidationException.check(
          !connection.getAutoCommit(),
          "connection",
          "is in auto-commit mode; call setAutoCommit(false) first so the tasks commit with the"
              + " application's transaction");
    } catch (SQLException e) {
      throw new ValidationException("connection", "cannot be used: " + e.getMessage());
    }
  }

  @Override
  public Connection openConnection() {
    Connection connection = lent.get();
    if (connection == null) {
      throw new IllegalStateException("no connection lent on this thread");
    }
    return connection;
  }

  @Override
  public void closeConnection(Connection c) {
    // The application's connection: it closes it.
  }
}
