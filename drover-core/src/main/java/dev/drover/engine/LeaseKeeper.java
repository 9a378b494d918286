package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.EventKind;
import dev.drover.store.Lease;
import dev.drover.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the runner's leases: heartbeats each at a third of its length (queued or executing),
 * cancels a run whose heartbeat finds its lease gone, times out handler runs, and gives leases back
 * without charge (when stopping, or when a run's lease ran out before a worker began it). Each
 * store call is its own transaction; the book and the runs change only after it committed. Loop
 * thread only.
 */
final class LeaseKeeper {
  private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

  private final Store store;
  private final String owner;
  private final RunBook book;
  private final RunnerStats stats;
  private final EventLog events;

  LeaseKeeper(Store store, String owner, RunBook book, RunnerStats stats, EventLog events) {
    this.store = store;
    this.owner = owner;
    this.book = book;
    this.stats = stats;
    this.events = events;
  }

  /** Extends every lease whose heartbeat is due; returns how many were found lost. */
  int heartbeat(Instant now) {
    Map<Duration, List<HeldRun>> due = new HashMap<>();
    for (HeldRun r : book.held()) {
      if (!r.nextHeartbeat.isAfter(now) && r.cancelled() == HeldRun.Cancel.NONE) {
        due.computeIfAbsent(r.type.lease(), k -> new ArrayList<>()).add(r);
      }
    }
    int lost = 0;
    for (Map.Entry<Duration, List<HeldRun>> e : due.entrySet()) {
      Instant until = now.plus(e.getKey());
      List<Lease> leases = e.getValue().stream().map(HeldRun::lease).toList();
      Set<Lease> gone = new HashSet<>(store.taskHeartbeat(owner, leases, until));
      for (HeldRun r : e.getValue()) {
        if (gone.contains(r.lease())) {
          log.warn("task {} attempt {}: lease lost; cancelling", r.taskId(), r.lease().attempt());
          events.add(EventKind.LEASE_LOST, r.taskId(), attempt(r.lease()));
          r.cancel(HeldRun.Cancel.LEASE_LOST);
          lost++;
        } else {
          r.heartbeated(until, now.plus(e.getKey().dividedBy(3)));
        }
      }
    }
    stats.leasesLost.addAndGet(lost);
    return lost;
  }

  /** When the next heartbeat is due, or {@code limit} if that is sooner. */
  Instant nextHeartbeat(Instant limit) {
    Instant due = limit;
    for (HeldRun r : book.held()) {
      // A cancelled run is not heartbeated any more (its worker is finishing).
      if (r.cancelled() == HeldRun.Cancel.NONE && r.nextHeartbeat.isBefore(due)) {
        due = r.nextHeartbeat;
      }
    }
    return due;
  }

  /**
   * Cancels handler runs past their type's timeout; command runs time out in the command runner.
   */
  void enforceTimeouts(Instant now) {
    for (HeldRun r : book.held()) {
      Instant started = r.started();
      if (started != null
          && r.type.command() == null
          && r.type.timeout() != null
          && r.cancelled() == HeldRun.Cancel.NONE
          && now.isAfter(started.plus(r.type.timeout()))) {
        r.cancel(HeldRun.Cancel.TIMEOUT);
      }
    }
  }

  /** Marks every claimed run no worker has begun to be given back. */
  void releaseQueued() {
    for (HeldRun r : book.queuedRuns()) {
      if (r.cancelled() == HeldRun.Cancel.NONE && r.started() == null) {
        book.release(r);
      }
    }
  }

  /** Marks every run whose outcome is not in hand to be given back, interrupting its worker. */
  void releaseAll() {
    for (HeldRun r : List.copyOf(book.held())) {
      if (!book.hasOutcome(r) && r.cancelled() != HeldRun.Cancel.RELEASE) {
        book.release(r);
      }
    }
  }

  /** Gives back the leases marked for release, without charging an attempt. */
  void release(Instant now) {
    List<HeldRun> runs = book.toRelease();
    if (runs.isEmpty()) {
      return;
    }
    int released = store.taskRelease(owner, runs.stream().map(HeldRun::lease).toList(), now);
    book.released(runs);
    runs.forEach(r -> events.add(EventKind.TASK_RELEASED, r.taskId(), attempt(r.lease())));
    stats.released.addAndGet(released);
    log.info("gave back {} claimed tasks without charging an attempt", released);
  }

  private static ObjectNode attempt(Lease lease) {
    ObjectNode d = Json.object();
    d.put("attempt", lease.attempt());
    return d;
  }
}
