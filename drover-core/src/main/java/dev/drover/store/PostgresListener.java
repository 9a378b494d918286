package dev.drover.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread holding its own connection that {@code LISTEN}s on one channel and calls back once per
 * batch of notifications. It reconnects after a failure; meanwhile runners poll.
 */
final class PostgresListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PostgresListener.class);
  private static final int WAIT_MS = 500;
  private static final long RECONNECT_MS = 1000;

  private final Connector connector;

  /** True when the connection is the application's, lent by its pool; see {@link #close}. */
  private final boolean borrowed;

  private final String channel;
  private final Runnable onNotify;
  private final Thread thread;
  private volatile boolean closed;
  private volatile Connection connection;

  /** Starts a listener on a channel: how a store listens, on its own URL or a borrowed pool. */
  @FunctionalInterface
  interface Starter {
    PostgresListener start(String channel, Runnable onNotify);
  }

  /** Opens the connection to listen on (a new one per reconnect). */
  @FunctionalInterface
  interface Connector {
    Connection open() throws SQLException;
  }

  private PostgresListener(
      Connector connector, boolean borrowed, String channel, Runnable onNotify) {
    this.connector = connector;
    this.borrowed = borrowed;
    this.channel = channel;
    this.onNotify = onNotify;
    this.thread = new Thread(this::loop, "drover-listen-" + channel);
    this.thread.setDaemon(true);
  }

  static PostgresListener start(String url, String channel, Runnable onNotify) {
    PostgresListener l =
        new PostgresListener(() -> DriverManager.getConnection(url), false, channel, onNotify);
    l.thread.start();
    return l;
  }

  /**
   * Listens on connections the application's pool lends through {@code connector}: one stays
   * borrowed while the listener runs, and goes back without its LISTEN.
   */
  static PostgresListener startBorrowed(Connector connector, String channel, Runnable onNotify) {
    PostgresListener l = new PostgresListener(connector, true, channel, onNotify);
    l.thread.start();
    return l;
  }

  private void loop() {
    while (!closed) {
      try (Connection c = connector.open()) {
        connection = c;
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + channel);
        }
        // Work created while we were not listening would otherwise wait for a poll.
        onNotify.run();
        PGConnection pg = c.unwrap(PGConnection.class);
        while (!closed) {
          PGNotification[] batch = pg.getNotifications(WAIT_MS);
          if (batch != null && batch.length > 0) {
            onNotify.run();
          }
        }
        if (borrowed) {
          // The pool hands this connection to the application next: leave it listening to nothing.
          try (Statement s = c.createStatement()) {
            s.execute("UNLISTEN *");
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (!closed) {
          log.warn("listening for new work failed ({}); polling until reconnected", e.getMessage());
          sleepQuietly();
        }
      } finally {
        connection = null;
      }
    }
  }

  private void sleepQuietly() {
    try {
      Thread.sleep(RECONNECT_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    if (borrowed) {
      // Closing a pooled connection from here would return it to the pool while the listening
      // thread still reads from it (through the unwrapped driver connection); let that thread
      // notice, UNLISTEN and close it itself, within a wait.
      try {
        thread.join(4L * WAIT_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    Connection c = connection;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        log.debug("closing the listener connection: {}", e.getMessage());
      }
    }
  }
}
