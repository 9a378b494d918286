package dev.drover.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a write transaction again when PostgreSQL ends it to break a deadlock (SQLSTATE 40P01). Only
 * for a transaction that commits whole or changes nothing and leaves nothing behind in memory, so
 * that the next attempt runs as if the first had not been tried: the frontier's blind stats writes,
 * which update their rows in their plan's order (visitStatsUpsert.sql). PostgreSQL has already
 * waited its deadlock_timeout before choosing the victim, and the writer that won goes on, so the
 * next attempt queues behind it at once. SQLite has one writer and never deadlocks.
 */
final class DeadlockRetry {
  private static final Logger log = LoggerFactory.getLogger(DeadlockRetry.class);

  /** A write chosen as a deadlock's victim this many times in a row fails with the last error. */
  static final int ATTEMPTS = 5;

  private DeadlockRetry() {}

  /**
   * Runs {@code write} until it ends other than as a deadlock's victim, at most {@link #ATTEMPTS}
   * times.
   *
   * @param what what the write is, for the log
   */
  static void run(String what, Runnable write) {
    for (int attempt = 1; ; attempt++) {
      try {
        write.run();
        return;
      } catch (RuntimeException e) {
        if (attempt == ATTEMPTS || !SqlStates.causedBy(e, SqlStates.DEADLOCK_DETECTED)) {
          throw e;
        }
        log.info(
            "{} was ended by PostgreSQL to break a deadlock with another writer; writing it again"
                + " (attempt {} of {})",
            what,
            attempt + 1,
            ATTEMPTS);
      }
    }
  }
}
