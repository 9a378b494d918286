package dev.drover.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
  private final WalIndex walIndex;
  private final Thread thread;
  private volatile boolean stopping;

  private SqliteCheckpointer(Connection connection, WalIndex walIndex) {
    this.connection = connection;
    this.walIndex = walIndex;
    this.thread = new Thread(this::loop, "drover-sqlite-checkpoint");
    this.thread.setDaemon(true);
  }

  /** Starts checkpointing the database at {@code jdbcUrl}, whose wal-index file is {@code shm}. */
  static SqliteCheckpointer start(String jdbcUrl, Path shm) {
    try {
      SqliteCheckpointer c =
          new SqliteCheckpointer(DriverManager.getConnection(jdbcUrl), new WalIndex(shm));
      c.thread.start();
      return c;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open the SQLite checkpoint connection", e);
    }
  }

  private void loop() {
    try (Statement s = connection.createStatement()) {
      while (!stopping) {
        if (walIndex.pagesNotCopied() >= CHECKPOINT_PAGES) {
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
   * How far the log is ahead of the database file, read from the wal-index header in the {@code
   * -shm} file (SQLite's documented format, https://sqlite.org/walformat.html): {@code mxFrame},
   * the last valid frame of the log, at byte 16 of the header, and {@code nBackfill}, the frames
   * already copied back, at byte 96; in the machine's byte order. A read may see a header being
   * rewritten; that only moves one checkpoint by one interval. A file that cannot be read or does
   * not hold that format makes every look answer "checkpoint", as before this was read.
   */
  static final class WalIndex {
    private static final int HEADER_VERSION = 3_007_000;
    private static final int BYTES = 100;

    private final Path shm;
    private final ByteBuffer header = ByteBuffer.allocate(BYTES).order(ByteOrder.nativeOrder());

    WalIndex(Path shm) {
      this.shm = shm;
    }

    /** Frames (pages) in the log not yet copied back; {@code Integer.MAX_VALUE} if unknown. */
    int pagesNotCopied() {
      header.clear();
      try (FileChannel channel = FileChannel.open(shm, StandardOpenOption.READ)) {
        while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
          // a short read of a file just being extended: read on
        }
      } catch (IOException e) {
        return Integer.MAX_VALUE;
      }
      if (header.position() < BYTES || header.getInt(0) != HEADER_VERSION) {
        return Integer.MAX_VALUE;
      }
      return Math.max(0, header.getInt(16) - header.getInt(96));
    }
  }
}
