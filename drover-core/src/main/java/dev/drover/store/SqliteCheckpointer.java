package dev.drover.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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
 * checkpoint (it never waits for readers or writers, and a writer never waits for it) runs on its
 * own connection once the log holds {@link #CHECKPOINT_PAGES} pages not yet copied back, looked at
 * every {@link #INTERVAL_MS} ms; the writers' threshold stays as a backstop in case this thread
 * falls behind.
 *
 * <p>Not sooner: once the whole log is copied back, the next write transaction starts the log over
 * and syncs its new header to disk before it commits. Checkpointing every few milliseconds made
 * that a sync in nearly every commit after a pause, such as creating a task on an idle store (about
 * half a millisecond of its latency here). Now it is one sync per {@link #CHECKPOINT_PAGES} pages
 * written.
 */
final class SqliteCheckpointer implements AutoCloseable {
  /** The log size, in pages, at which a writer still checkpoints itself: the backstop. */
  static final int WRITER_CHECKPOINT_PAGES = 16_384;

  /** Pages in the log not yet in the database file at which this thread checkpoints. */
  static final int CHECKPOINT_PAGES = 1_000;

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
        if (pagesNotCopied(s) >= CHECKPOINT_PAGES) {
          s.execute("PRAGMA wal_checkpoint(PASSIVE)");
        }
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

  /**
   * Frames (pages) in the log not yet copied back into the database file, from a checkpoint that
   * copies nothing ({@code NOOP}, SQLite 3.51 and later), which only reads the wal-index header
   * through SQLite's own mapping of it; {@code Integer.MAX_VALUE} if SQLite cannot say.
   *
   * <p>Why not read the header from the {@code -shm} file directly, as this class once did: closing
   * any file descriptor of a file drops every POSIX lock this process holds on it, SQLite's
   * included (https://sqlite.org/howtocorrupt.html, section 2.2). Another process that then opens
   * the database sees nobody on the wal-index, takes itself for the first, and truncates the file
   * this process has mapped: the next read of it here dies with SIGBUS.
   */
  static int pagesNotCopied(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(NOOP)")) {
      if (!rs.next() || rs.getInt(2) < 0) {
        return Integer.MAX_VALUE;
      }
      return Math.max(0, rs.getInt(2) - rs.getInt(3));
    }
  }
}
