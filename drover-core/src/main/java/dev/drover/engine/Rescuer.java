package dev.drover.engine;

import dev.drover.model.EventKind;
import dev.drover.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The leader's rescuer: expired leases (their runner crashed or hung) end {@code lost} and their
 * tasks are charged a failed attempt and made due again. It looks at most every {@link #INTERVAL}:
 * a lease has run its whole length by then, so a little more is nothing, while looking on every
 * pass cost a transaction per pass under load.
 */
final class Rescuer {
  static final Duration INTERVAL = Duration.ofMillis(250);
  static final int BATCH = 1000;

  private final Store store;
  private final RunnerStats stats;
  private final EventLog events;
  private Instant next = Instant.MIN;

  Rescuer(Store store, RunnerStats stats, EventLog events) {
    this.store = store;
    this.stats = stats;
    this.events = events;
  }

  /** Rescues up to one batch of expired leases if it is time; returns how many. */
  int runOnce(Instant now) {
    if (now.isBefore(next)) {
      return 0;
    }
    List<Long> rescued = store.taskRescueExpired(now, BATCH);
    rescued.forEach(id -> events.add(EventKind.TASK_RESCUED, id, null));
    stats.rescued.addAndGet(rescued.size());
    // A full batch: there may be more, so go on at the next pass.
    next = rescued.size() == BATCH ? now : now.plus(INTERVAL);
    return rescued.size();
  }
}
