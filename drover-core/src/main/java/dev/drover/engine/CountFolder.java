package dev.drover.engine;

import dev.drover.store.Store;
import java.time.Duration;
import java.time.Instant;

/**
 * The leader's fold of the status counts every {@link #INTERVAL}: on PostgreSQL each statement that
 * moves tasks between statuses appends a row to the counts, and the fold keeps them to one per type
 * and status, so that reading the counts stays a read of a few rows.
 */
final class CountFolder {
  static final Duration INTERVAL = Duration.ofSeconds(5);

  private final Store store;
  private Instant next = Instant.MIN;

  CountFolder(Store store) {
    this.store = store;
  }

  void runOnce(Instant now) {
    if (now.isBefore(next)) {
      return;
    }
    store.taskCountCompact();
    next = now.plus(INTERVAL);
  }
}
