package dev.drover.store;

import dev.drover.model.RunnerRecord;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The process table and the leader leases: which runners exist, which one is active at each gate
 * (one data dir, one active runner), and which runner runs each singleton service. Every method is
 * its own transaction.
 */
public interface RunnerTable {

  /** Adds a runner, normally {@code waiting}; a name already present is an error. */
  void register(RunnerRecord runner);

  /**
   * Makes a waiting runner active unless another runner is active at its gate; true if it is now
   * active. Safe under races: a unique index admits one active runner per gate.
   */
  boolean activate(String name, Instant now);

  Optional<RunnerRecord> get(String name);

  /** The active runner at {@code gate}, if any. */
  Optional<RunnerRecord> active(String gate);

  /** Every registered runner, oldest first. */
  List<RunnerRecord> list();

  /** Records that the runner is alive at {@code now}; empty if its row is gone (it was pruned). */
  Optional<RunnerRecord> heartbeat(String name, Instant now);

  /**
   * Asks a runner to stop on behalf of {@code by}, who waits until {@code deadline}; true if the
   * row exists.
   */
  boolean requestStop(String name, String by, Instant deadline);

  /** Removes a runner's row; true if it was there. */
  boolean remove(String name);

  /**
   * Takes the lease on {@code service} for {@code holder} until {@code until}, if it is free,
   * expired at {@code now}, or already held by {@code holder}; true if {@code holder} now holds it.
   */
  boolean leaderAcquire(String service, String holder, Instant now, Instant until);

  /** Gives up the lease on {@code service} if {@code holder} holds it. */
  void leaderRelease(String service, String holder);

  Optional<LeaderLease> leader(String service);
}
