package dev.drover.engine;

import dev.drover.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What workers tell the loop (a run's outcome, the end of a worker's turn) and wake-ups, in one
 * queue the loop sleeps on: a finishing worker or new work wakes it at once.
 */
final class Signals {
  /** A message to the loop. */
  sealed interface Signal permits Finished, SlotFreed, WakeUp, HandOver {}

  /**
   * A worker is done with {@code run}; a null outcome means there is nothing to write (its lease is
   * gone or to be given back, or it never began).
   */
  record Finished(HeldRun run, Outcome outcome) implements Signal {}

  /** A worker found no queued run of its type and gave its slot back. */
  record SlotFreed(String type) implements Signal {}

  record WakeUp() implements Signal {}

  /** A create claimed a task for this runner and committed ({@link CreateClaims}). */
  record HandOver() implements Signal {}

  // A queue with separate locks for adding and taking: workers add while the loop takes.
  private final LinkedBlockingQueue<Signal> queue = new LinkedBlockingQueue<>();

  /** A signal {@link #await} took off the queue, first in line for {@link #drain}; loop only. */
  private Signal awaited;

  void finished(HeldRun run, Outcome outcome) {
    queue.add(new Finished(run, outcome));
  }

  void slotFreed(String type) {
    queue.add(new SlotFreed(type));
  }

  void wake() {
    queue.add(new WakeUp());
  }

  void handOver() {
    queue.add(new HandOver());
  }

  /**
   * If something was signalled and all of it is hand-overs, takes them and returns true: the loop
   * needs no pass. Only hand-overs are taken, so a worker's signal that comes meanwhile stays for
   * {@link #drain}. Loop thread only.
   */
  boolean takeOnlyHandOvers() {
    if (awaited == null && queue.isEmpty()) {
      return false;
    }
    if (awaited != null && !(awaited instanceof HandOver)) {
      return false;
    }
    for (Signal s : queue) {
      if (!(s instanceof HandOver)) {
        return false;
      }
    }
    awaited = null;
    queue.removeIf(s -> s instanceof HandOver);
    return true;
  }

  boolean isEmpty() {
    return awaited == null && queue.isEmpty();
  }

  /** Everything signalled so far, oldest first. */
  List<Signal> drain() {
    List<Signal> batch = new ArrayList<>();
    if (awaited != null) {
      batch.add(awaited);
      awaited = null;
    }
    queue.drainTo(batch);
    return batch;
  }

  /** Waits up to {@code millis} for a signal, leaving it for {@link #drain}. Loop thread only. */
  void await(long millis) throws InterruptedException {
    if (awaited == null) {
      awaited = queue.poll(millis, TimeUnit.MILLISECONDS);
    }
  }
}
