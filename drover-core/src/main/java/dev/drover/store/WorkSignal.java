package dev.drover.store;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells idle runners that tasks may have become due, so they claim at once instead of at their next
 * poll. Within a process, listeners of every store on the same database are called directly after
 * the write commits. On PostgreSQL the write is also announced with {@code NOTIFY}, which a {@link
 * PostgresListener} in every other process turns into the same call. Polling stays the fallback: a
 * lost signal delays work by at most a poll interval.
 *
 * <p>Debounced on both ends: one signal per committed write, however many tasks it touched, and a
 * listener drains every notification pending before it calls back once.
 */
final class WorkSignal implements AutoCloseable {
  static final String CHANNEL = "drover_work";
  private static final Logger log = LoggerFactory.getLogger(WorkSignal.class);

  /** Listeners per database, shared by every store of this process on it. */
  private static final Map<String, Set<Runnable>> LISTENERS = new ConcurrentHashMap<>();

  private final String database;
  private final Jdbi jdbi;
  private final PostgresListener.Starter listen;
  private PostgresListener remote;

  /**
   * @param database identifies the database within this process (data dir or URL)
   * @param listen starts the listener for other processes' NOTIFY, or null on SQLite
   */
  WorkSignal(String database, Jdbi jdbi, PostgresListener.Starter listen) {
    this.database = database;
    this.jdbi = jdbi;
    this.listen = listen;
  }

  /** Announces that tasks may have become due; call after the write committed. */
  void signal() {
    wakeLocal();
    if (listen != null) {
      try {
        jdbi.useHandle(this::announce);
      } catch (RuntimeException e) {
        // The write itself committed; other processes fall back to polling.
        log.warn("cannot notify other runners of new work: {}", e.getMessage());
      }
    }
  }

  /**
   * Announces new work to other processes from inside the writing transaction: on PostgreSQL a
   * NOTIFY is queued, and sent when (and only if) the transaction commits. That spares the write a
   * round trip and a commit of its own. Call {@link #wakeLocal()} after the commit.
   */
  void announce(Handle h) {
    if (listen != null) {
      h.createQuery("SELECT pg_notify('" + CHANNEL + "', '')").mapTo(String.class).one();
    }
  }

  /** Wakes the listeners in this process; call after the write committed. */
  void wakeLocal() {
    callListeners(database);
  }

  /** Calls {@code listener} on every signal until the returned handle is closed. */
  synchronized AutoCloseable subscribe(Runnable listener) {
    LISTENERS.computeIfAbsent(database, k -> ConcurrentHashMap.newKeySet()).add(listener);
    if (listen != null && remote == null) {
      remote = listen.start(CHANNEL, () -> callListeners(database));
    }
    return () -> LISTENERS.getOrDefault(database, Set.of()).remove(listener);
  }

  private static void callListeners(String database) {
    for (Runnable r : LISTENERS.getOrDefault(database, Set.of())) {
      r.run();
    }
  }

  @Override
  public synchronized void close() {
    if (remote != null) {
      remote.close();
      remote = null;
    }
  }
}
