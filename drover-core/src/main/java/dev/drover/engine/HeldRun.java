package dev.drover.engine;

import dev.drover.model.TaskType;
import dev.drover.store.Claim;
import dev.drover.store.Lease;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * A lease the runner holds: claimed, then queued until a worker begins it, then executing until its
 * outcome is written. The loop thread owns the heartbeat fields; the worker and the loop meet on
 * the synchronized methods, so a cancel interrupts a worker only while it executes this run.
 *
 * <p>A worker begins a run only while its lease is known to hold ({@link #leaseUntil}, moved on by
 * each committed heartbeat): when the runner cannot reach the database for longer than a lease, a
 * queued run's lease may have been rescued by another runner, and beginning it then could run the
 * task twice at once.
 */
final class HeldRun {
  /** Why the loop cancelled a run. */
  enum Cancel {
    NONE,
    /** Ran past its type's timeout: it ends failed. */
    TIMEOUT,
    /** The heartbeat found the lease gone: nothing is written. */
    LEASE_LOST,
    /** To be given back without charge (stopping, or its lease ran out before it began). */
    RELEASE
  }

  final Claim claim;
  final TaskType type;

  /** When the next heartbeat of its lease is due; loop thread only. */
  Instant nextHeartbeat;

  /** Whether its run is written, started, in the database already; loop thread only. */
  boolean startWritten;

  /**
   * Whether its run left an output directory (a command's always does, a handler's if it asked for
   * one); set by its worker before it signals the end, read by the loop after.
   */
  volatile boolean leftRunDir;

  private volatile Instant leaseUntil;
  private Cancel cancel = Cancel.NONE;
  private Thread worker;
  private Instant started;
  private Instant ended;

  HeldRun(Claim claim, TaskType type, Instant claimed) {
    this.claim = claim;
    this.type = type;
    this.nextHeartbeat = claimed.plus(type.lease().dividedBy(3));
    this.leaseUntil = claim.leaseUntil();
  }

  Lease lease() {
    return claim.lease();
  }

  /** Its output directory under {@code runsDir}. */
  Path runDir(Path runsDir) {
    return RunDirectory.of(runsDir, type.name(), claim.run().backendId());
  }

  long taskId() {
    return claim.task().id();
  }

  /** Records a committed heartbeat: the lease now holds until {@code until}. Loop thread only. */
  void heartbeated(Instant until, Instant nextDue) {
    leaseUntil = until;
    nextHeartbeat = nextDue;
  }

  /**
   * Called by the worker that takes the run at {@code at}: false if it was cancelled while queued,
   * or if its lease may have run out (it is then marked for release).
   */
  synchronized boolean begin(Thread thread, Instant at) {
    if (cancel == Cancel.NONE && !at.isBefore(leaseUntil)) {
      cancel = Cancel.RELEASE;
    }
    if (cancel != Cancel.NONE) {
      return false;
    }
    worker = thread;
    started = at;
    return true;
  }

  /**
   * Called by its worker once it is done with the run, at {@code at}: from now on a cancel
   * interrupts nobody.
   */
  synchronized void end(Instant at) {
    worker = null;
    ended = at;
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

  /** Whether a worker began it and has not ended it yet. */
  synchronized boolean executing() {
    return started != null && ended == null;
  }

  /** How long its worker ran it; zero until it ended. */
  synchronized Duration ran() {
    return started == null || ended == null ? Duration.ZERO : Duration.between(started, ended);
  }
}
