package dev.drover.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies SQLite's write-ahead log back into the database file on a thread of its own, so that the
 * writers do not. By SQLite's default, the connection whose commit takes the log past 1,000 pages
 * copies the whole log before its commit returns: on a large frontier that was about half of a
 * grab's commit, and it lands on whichever write happens to cross the line. Here a passive
 * checkpoint (it never waits for readers or writers, and a writer never waits for it) runs every
 * {@link #INTERVAL_MS} ms on its own connection; the writers' threshold stays as a backstop in case
 * this thread falls behind.
 */
final class SqliteCheckpointer implements AutoCloseable {
  /** The log size, in pages, at which a writer still checkpoints itself: the backstop. */
  static final int WRITER_CHECKPOINT_PAGES = 16_384;

  static final long INTERVAL_MS = 50;

  private static final Logger log = LoggerFactory.getLogger(SqliteCheckpointer.class);

  private final Connection connection;
  private final Thread thread;
  private volatile boolean stopping;

  private SqliteCheckpointer(Connection connection) {
    this.connection = connection;
    this.thread = new Thread(this::loop, "drover-sqlite-checkpoint");
    this.thread.setDaemon(true);
  }

  /** Starts checkpointing the database at {@code jdbcUrl}. */
  static SqliteCheckpointer start(String jdbcUrl) {
    try {
      SqliteCheckpointer c = new SqliteCheckpointer(DriverManager.getConnection(jdbcUrl));
      c.thread.start();
      return c;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open the SQLite checkpoint connection", e);
    }
  }

  private void loop() {
    try (Statement s = connection.createStatement()) {
      while (!stopping) {
        s.execute("PRAGMA wal_checkpoint(PASSIVE)");
        TimeUnit.MILLISECONDS.sleep(INTERVAL_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SQLException e) {
      if (!stopping) {
        // The writers' own threshold takes over; nothing is lost, commits just get slower.
        log.warn(
            "background checkpoints stopped, writers checkpoint for themselves: {}", e.toString());
      }
    }
  }

  @Override
  public void close() {
    stopping = true;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
      connection.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SQLException e) {
      log.debug("closing the checkpoint connection: {}", e.toString());
    }
  }
}
