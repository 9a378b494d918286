package dev.drover.engine;

import dev.drover.model.RunnerRecord;
import dev.drover.store.Store;
import java.time.Duration;
import java.time.Instant;

/**
 * The leader's pruner: clears after dead runners every {@link #INTERVAL} (see {@link DeadRunners}).
 */
final class RunnerPruner {
  static final Duration INTERVAL = Duration.ofSeconds(2);

  private final Store store;
  private final String self;
  private final DeadRunners dead;
  private Instant next = Instant.MIN;

  RunnerPruner(Store store, String self, DeadRunners dead) {
    this.store = store;
    this.self = self;
    this.dead = dead;
  }

  /** Buries the dead runners if it is time; returns how many. */
  int runOnce(Instant now) {
    if (now.isBefore(next)) {
      return 0;
    }
    int buried = 0;
    for (RunnerRecord r : store.runners().list()) {
      if (!r.name().equals(self) && dead.isDead(r, now)) {
        dead.bury(r, now);
        buried++;
      }
    }
    next = now.plus(INTERVAL);
    return buried;
  }
}
