package dev.drover.engine;

import dev.drover.store.Claim;
import dev.drover.model.TaskType;
import java.time.Instant;

/**
 * A lease the runner holds: claimed, then queued until a worker begins it, then executing until
 * its outcome is written. The loop thread owns the heartbeat fields; the worker and the loop meet
 * on the synchronized methods, so a cancel interrupts a worker only while it executes this run.
 */
final class HeldRun {
  /** Why the loop cancelled a run. */
  enum Cancel { NONE, TIMEOUT, LEASE_LOST, SHUTDOWN }

  final Claim claim;
  final TaskType type;
  /** When the next heartbeat of its lease is due; loop thread only. */
  Instant nextHeartbeat;
  /** Whether its run is written, started, in the database already; loop thread only. */
  boolean startWritten;

  private Cancel cancel = Cancel.NONE;
  private Thread worker;
  private Instant started;

  HeldRun(Claim claim, TaskType type, Instant claimed) {
    this.claim = claim;
    this.type = type;
    this.nextHeartbeat = claimed.plus(type.lease().dividedBy(3));
  }

  /** Called by the worker that takes the run: false if it was cancelled while queued. */
  synchronized boolean begin(Thread thread, Instant at) {
    if (cancel != Cancel.NONE) {
      return false;
    }
    worker = thread;
    started = at;
    return true;
  }

  /** Called by its worker once it is done with the run: from now on a cancel interrupts nobody. */
  synchronized void end() {
    worker = null;
  }

  /** Marks the run cancelled, and interrupts its worker if one is executing it now. */
  synchronized void cancel(Cancel why) {
    cancel = why;
    if (worker != null) {
      worker.interrupt();
    }
  }

  synchronized Cancel cancelled() {
    return cancel;
  }

  /** When a worker began it; null while it is queued. */
  synchronized Instant started() {
    return started;
  }
}
