package dev.drover.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * Makes the threads of one process take turns at an SQLite file's write lock in order, instead of
 * through SQLite's busy handler. Every Drover transaction on SQLite begins IMMEDIATE, so it holds
 * the file's one write lock from BEGIN to COMMIT; a second writer's BEGIN fails with SQLITE_BUSY
 * and SQLite's busy handler sleeps and tries again, 1, 2, 5, 10, 15, 20, 25 ms and longer. A writer
 * that wants the lock while another thread writes often (the runner completing runs) then spends
 * most of its time asleep after the lock was free again, and may lose the race each time it wakes.
 * Here such writers queue on a fair lock and get the write lock handed over as soon as it is
 * released.
 *
 * <p>The gate is per file and per process, shared by every store of the process open on that file.
 * Writers in other processes still meet the busy handler. A thread that waits longer than the busy
 * timeout goes on without the gate and leaves the wait to SQLite, so a gate never turns what SQLite
 * would have reported as busy into a hang.
 */
final class SqliteWriteGate {
  /** A gate that lets everyone through, for a pool Drover does not own. */
  static final SqliteWriteGate NONE = new SqliteWriteGate(null, Duration.ZERO);

  /**
   * One lock per database file the process has opened. Never removed: another store of the process
   * may still be open on the file, and a lock is a few dozen bytes.
   */
  private static final Map<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

  private final ReentrantLock lock;
  private final long waitNanos;

  private SqliteWriteGate(ReentrantLock lock, Duration wait) {
    this.lock = lock;
    this.waitNanos = wait.toNanos();
  }

  /** The gate of the database file {@code file}, waiting at most {@code busyTimeout}. */
  static SqliteWriteGate of(Path file, Duration busyTimeout) {
    Path key = file.toAbsolutePath().normalize();
    return new SqliteWriteGate(
        LOCKS.computeIfAbsent(key, k -> new ReentrantLock(true)), busyTimeout);
  }

  /** Runs {@code write}, a whole transaction on {@code h}, when this thread's turn comes. */
  <T, X extends Exception> T through(Handle h, HandleCallback<T, X> write) throws X {
    boolean held = enter();
    try {
      return write.withHandle(h);
    } finally {
      if (held) {
        lock.unlock();
      }
    }
  }

  /** Whether {@code thread} waits at this gate (for tests). */
  boolean isWaiting(Thread thread) {
    return lock != null && lock.hasQueuedThread(thread);
  }

  /** Makes every transaction of {@code jdbi} pass through this gate. */
  void install(Jdbi jdbi) {
    if (lock == null) {
      return;
    }
    jdbi.setTransactionHandler(
        new DelegatingTransactionHandler(jdbi.getTransactionHandler()) {
          @Override
          public <R, X extends Exception> R inTransaction(Handle handle, HandleCallback<R, X> work)
              throws X {
            return through(handle, h -> super.inTransaction(h, work));
          }

          @Override
          public <R, X extends Exception> R inTransaction(
              Handle handle, TransactionIsolationLevel level, HandleCallback<R, X> work) throws X {
            return through(handle, h -> super.inTransaction(h, level, work));
          }
        });
  }

  private boolean enter() {
    if (lock == null) {
      return false;
    }
    try {
      return lock.tryLock(waitNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      // Left to SQLite, as a wait that timed out is; the interrupt stays set for the caller.
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
