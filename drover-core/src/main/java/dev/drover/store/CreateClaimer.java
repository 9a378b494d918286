package dev.drover.store;

import java.time.Instant;

/**
 * A runner of this process that takes a task in the transaction that creates it, when it has a
 * worker slot free for the task's type. The create then writes the task already claimed for it, and
 * the runner puts a worker on it without a claim of its own: the task costs one transaction, a
 * wake-up and a hand-off before it starts, instead of two transactions.
 *
 * <p>The claim's rules hold: the task must be due, its type not paused and without a per-key limit,
 * and no older due task of its type may be waiting (that one goes first, through the runner's own
 * claim). Otherwise the task is created waiting, as without a claimer.
 */
public interface CreateClaimer {
  /**
   * Holds a free worker slot of {@code type} for one task created at {@code now}, until the offer
   * is taken or withdrawn; null if the runner has none to give. Any thread.
   */
  Offer offer(String type, Instant now);

  /** A worker slot held for one task being created. Exactly one of its two ends is called. */
  interface Offer {
    /** The runner that claims the task. */
    String owner();

    /** When the lease of a task claimed on this offer ends, unless the runner extends it. */
    Instant leaseUntil();

    /** The transaction that created and claimed the task committed: the runner holds it now. */
    void taken(Claim claim);

    /** No task was claimed on this offer, or its transaction did not commit: the slot is free. */
    void withdrawn();
  }
}
