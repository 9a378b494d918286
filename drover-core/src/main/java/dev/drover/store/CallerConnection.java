package dev.drover.store;

import dev.drover.ValidationException;
import java.sql.Connection;
import java.sql.SQLException;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.Handles;
import org.jdbi.v3.core.Jdbi;

/**
 * A connection the application lends Drover inside its own open transaction: Drover writes on it
 * and neither commits, rolls back nor closes it, so its writes (and, on PostgreSQL, the NOTIFY they
 * queue) take effect only when the application commits.
 */
final class CallerConnection implements ConnectionFactory {
  private final Connection connection;

  private CallerConnection(Connection connection) {
    this.connection = connection;
  }

  /** A Jdbi whose every handle is {@code connection}, binding as the store's own does. */
  static Jdbi jdbi(Connection connection, DialectSql dialect) {
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
    Jdbi jdbi = Jdbi.create(new CallerConnection(connection));
    jdbi.registerArgument(new InstantArgumentFactory(dialect));
    // The transaction is the application's: closing the handle must not end it.
    jdbi.getConfig(Handles.class).setForceEndTransactions(false);
    return jdbi;
  }

  @Override
  public Connection openConnection() {
    return connection;
  }

  @Override
  public void closeConnection(Connection c) {
    // The application's connection: it closes it.
  }
}
