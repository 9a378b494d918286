package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.Outcome;
import dev.drover.engine.Signals.Finished;
import dev.drover.engine.Signals.Signal;
import dev.drover.engine.Signals.SlotFreed;
import dev.drover.store.Completion;
import dev.drover.store.Lease;
import dev.drover.store.RunStarted;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The runner's book of what it holds: every lease (queued or executing), the claimed runs no worker
 * has begun yet, the worker slots taken per type, the outcomes not yet written and the leases to
 * give back.
 *
 * <p>Why it is safe: the book follows the database. A run leaves it only once the transaction that
 * wrote its end (or gave its lease back) has committed ({@link #written}, {@link #released}); a
 * claim enters it only once its pass committed ({@link #claimed}). If a pass fails, nothing here
 * has moved: the next pass carries the same outcomes and starts, and the failed pass's claims were
 * never seen. Loop thread only, except the per-type queues, which workers take runs from.
 */
final class RunBook {
  private final Map<Lease, HeldRun> held = new HashMap<>();
  private final Map<String, Queue<HeldRun>> queued = new ConcurrentHashMap<>();
  private final Map<String, Integer> slotsTaken = new HashMap<>();

  /** Outcomes of runs that ended, in the order they ended, until a pass writes them. */
  private final Map<Lease, Outcome> unwritten = new LinkedHashMap<>();

  private final Set<HeldRun> toRelease = new LinkedHashSet<>();

  /**
   * Takes in what workers signalled: outcomes to write, runs to give back, slots freed. Returns the
   * runs that finished with an outcome, once each.
   */
  List<HeldRun> take(List<Signal> signals) {
    List<HeldRun> finished = new ArrayList<>();
    for (Signal signal : signals) {
      if (signal instanceof SlotFreed freed) {
        slotsTaken.merge(freed.type(), -1, Integer::sum);
      } else if (signal instanceof Finished f && held.containsKey(f.run().lease())) {
        if (f.outcome() != null) {
          unwritten.put(f.run().lease(), f.outcome()); // written, not given back
          toRelease.remove(f.run());
          finished.add(f.run());
        } else if (f.run().cancelled() == HeldRun.Cancel.RELEASE) {
          toRelease.add(f.run());
        } else {
          held.remove(f.run().lease()); // its lease is gone: there is nothing to write
        }
      }
    }
    return finished;
  }

  // ---- what the next pass writes

  /**
   * The runs a worker began that are still executing and whose start is not written yet. A run that
   * ended is left out, whether the loop has taken its outcome or not: its start is written with its
   * end, by the pass that takes the outcome. Workers go on beginning and ending short runs while a
   * pass is built; writing the start of each that ended since the loop last took the signals cost
   * each a second write of its run, and an upsert for its end, and kept nothing safer.
   */
  List<RunStarted> startsToWrite() {
    List<RunStarted> starts = new ArrayList<>();
    for (HeldRun r : held.values()) {
      if (!r.startWritten && r.executing()) {
        starts.add(new RunStarted(r.claim, r.started()));
      }
    }
    return starts;
  }

  /** The ends of the runs that finished and are not written yet. */
  List<Completion> completionsToWrite() {
    List<Completion> completions = new ArrayList<>(unwritten.size());
    unwritten.forEach(
        (lease, outcome) -> {
          HeldRun r = held.get(lease);
          ObjectNode meta = Json.object();
          meta.set("result", outcome.result());
          completions.add(
              new Completion(
                  lease,
                  outcome.status(),
                  meta,
                  r.startWritten ? null : r.started(),
                  r.claim,
                  outcome.children()));
        });
    return completions;
  }

  /** Runs whose leases are to be given back without charge. */
  List<HeldRun> toRelease() {
    return List.copyOf(toRelease);
  }

  // ---- what a committed pass changes

  /** The starts in {@code starts} are committed. */
  void startsWritten(List<RunStarted> starts) {
    for (RunStarted s : starts) {
      HeldRun r = held.get(s.claim().lease());
      if (r != null) {
        r.startWritten = true;
      }
    }
  }

  /**
   * The completions are committed (written, or rejected because the lease was lost); returns the
   * runs the book let go of, by lease.
   */
  Map<Lease, HeldRun> written(List<Completion> completions) {
    Map<Lease, HeldRun> ended = new HashMap<>(completions.size());
    for (Completion c : completions) {
      unwritten.remove(c.lease());
      HeldRun r = held.remove(c.lease());
      if (r != null) {
        ended.put(c.lease(), r);
      }
    }
    return ended;
  }

  /** The claims are committed: they are held, and queued for workers of their type. */
  void claimed(List<HeldRun> runs) {
    for (HeldRun r : runs) {
      held.put(r.lease(), r);
      queued.computeIfAbsent(r.type.name(), k -> new ConcurrentLinkedQueue<>()).add(r);
    }
  }

  /** The leases of {@code runs} are given back (committed): the book forgets them. */
  void released(Collection<HeldRun> runs) {
    for (HeldRun r : runs) {
      held.remove(r.lease());
      toRelease.remove(r);
      Queue<HeldRun> q = queued.get(r.type.name());
      if (q != null) {
        q.remove(r);
      }
    }
  }

  /** Marks {@code r} to be given back; a worker that has not begun it will not. */
  void release(HeldRun r) {
    r.cancel(HeldRun.Cancel.RELEASE);
    toRelease.add(r);
  }

  // ---- reading

  boolean isEmpty() {
    return held.isEmpty();
  }

  Collection<HeldRun> held() {
    return held.values();
  }

  /** True if the run's outcome is in hand, waiting to be written. */
  boolean hasOutcome(HeldRun r) {
    return unwritten.containsKey(r.lease());
  }

  /** Claimed runs no worker has begun, of every type. */
  List<HeldRun> queuedRuns() {
    List<HeldRun> runs = new ArrayList<>();
    queued.values().forEach(runs::addAll);
    return runs;
  }

  Map<String, Queue<HeldRun>> queues() {
    return queued;
  }

  int queuedOf(String type) {
    Queue<HeldRun> q = queued.get(type);
    return q == null ? 0 : q.size();
  }

  int slotsTaken(String type) {
    return slotsTaken.getOrDefault(type, 0);
  }

  int slotsTaken() {
    return slotsTaken.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** A worker took a slot of {@code type}. */
  void slotTaken(String type) {
    slotsTaken.merge(type, 1, Integer::sum);
  }
}
