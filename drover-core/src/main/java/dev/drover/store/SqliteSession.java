package dev.drover.store;

import java.sql.SQLException;
import java.sql.Statement;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.spi.JdbiPlugin;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;

/**
 * On an application's SQLite pool, gives each connection Drover borrows the settings Drover's own
 * pool opens with ({@link Stores}): foreign keys enforced (the schema's cascades rely on them), a
 * busy timeout, and IMMEDIATE transactions so a read-then-write never fails on a lock upgrade.
 * These settings stay on the connection when it goes back to the application's pool.
 */
final class SqliteSession implements JdbiPlugin {
  private final long busyTimeoutMs;

  SqliteSession(StoreOptions options) {
    this.busyTimeoutMs = options.sqliteBusyTimeout().toMillis();
  }

  @Override
  public Handle customizeHandle(Handle handle) throws SQLException {
    var connection = handle.getConnection();
    // PRAGMA foreign_keys is a no-op inside a transaction; a handle opens outside one.
    if (connection.getAutoCommit()) {
      try (Statement s = connection.createStatement()) {
        s.execute("PRAGMA foreign_keys = ON");
        s.execute("PRAGMA busy_timeout = " + busyTimeoutMs);
      }
    }
    if (connection.isWrapperFor(SQLiteConnection.class)) {
      connection
          .unwrap(SQLiteConnection.class)
          .getConnectionConfig()
          .setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    }
    return handle;
  }
}
