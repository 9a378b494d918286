package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.engine.command.Orphans;
import dev.drover.engine.command.ProcessTree;
import dev.drover.model.EventKind;
import dev.drover.model.RunnerRecord;
import dev.drover.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells dead runners from live ones, and clears what a dead one left behind. On this host a runner
 * is dead when its process is (pid and start time); elsewhere when its heartbeat is older than the
 * runner timeout. Clearing kills the command processes it left running here, takes back its leases,
 * gives up its leadership and removes its row, in that order, so its tasks are never executed by it
 * and by a successor at once.
 */
final class DeadRunners {
  private static final Logger log = LoggerFactory.getLogger(DeadRunners.class);
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);

  private final Store store;
  private final ProcessIdentity self;
  private final Duration runnerTimeout;
  private final EventLog events;

  DeadRunners(Store store, ProcessIdentity self, Duration runnerTimeout, EventLog events) {
    this.store = store;
    this.self = self;
    this.runnerTimeout = runnerTimeout;
    this.events = events;
  }

  boolean isDead(RunnerRecord r, Instant now) {
    if (self.sameHost(r)) {
      return ProcessIdentity.alive(r).isEmpty();
    }
    return r.heartbeat().plus(runnerTimeout).isBefore(now);
  }

  /**
   * Clears after a dead runner; its leases are rescued as failed attempts (it may have died of
   * them).
   */
  void bury(RunnerRecord r, Instant now) {
    log.warn("runner {} (pid {} on {}) is gone; rescuing its tasks", r.name(), r.pid(), r.host());
    clear(r, now, true, EventKind.RUNNER_PRUNED);
  }

  /**
   * Kills a runner on this host that did not leave within its takeover grace, then clears after it.
   * Its leases are released without charge: it was stopped, its tasks did not fail.
   */
  void kill(RunnerRecord r, Instant now) {
    Optional<ProcessHandle> process = ProcessIdentity.alive(r);
    log.warn("runner {} (pid {}) did not stop in time; killing it", r.name(), r.pid());
    process.ifPresent(
        p -> {
          p.destroyForcibly();
          ProcessTree.awaitExit(p, KILL_WAIT);
        });
    clear(r, now, false, EventKind.RUNNER_KILLED);
  }

  private void clear(RunnerRecord r, Instant now, boolean charge, EventKind kind) {
    int orphans = self.sameHost(r) ? Orphans.kill(r.name()) : 0;
    List<Long> taken = store.taskRescueOwner(r.name(), now, charge);
    store.runners().leaderRelease(Leadership.SERVICE, r.name());
    store.runners().remove(r.name());
    ObjectNode d = Json.object();
    d.put("runner", r.name());
    d.put("pid", r.pid());
    d.put("host", r.host());
    d.put(charge ? "rescued" : "released", taken.size());
    d.put("orphans_killed", orphans);
    events.add(kind, null, d);
    taken.forEach(
        id -> events.add(charge ? EventKind.TASK_RESCUED : EventKind.TASK_RELEASED, id, null));
  }
}
