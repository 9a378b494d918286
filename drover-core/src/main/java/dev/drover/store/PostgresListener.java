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
  private final String channel;
  private final Runnable onNotify;
  private final Thread thread;
  private volatile boolean closed;
  private volatile Connection connection;

  /** Opens the connection to listen on (a new one per reconnect). */
  @FunctionalInterface
  interface Connector {
    Connection open() throws SQLException;
  }

  private PostgresListener(Connector connector, String channel, Runnable onNotify) {
    this.connector = connector;
    this.channel = channel;
    this.onNotify = onNotify;
    this.thread = new Thread(this::loop, "drover-listen-" + channel);
    this.thread.setDaemon(true);
  }

  static PostgresListener start(String url, String channel, Runnable onNotify) {
    return start(() -> DriverManager.getConnection(url), channel, onNotify);
  }

  /**
   * Listens on connections {@code connector} opens; with an application's pool, one of its
   * connections stays borrowed while the listener runs.
   */
  static PostgresListener start(Connector connector, String channel, Runnable onNotify) {
    PostgresListener l = new PostgresListener(connector, channel, onNotify);
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
