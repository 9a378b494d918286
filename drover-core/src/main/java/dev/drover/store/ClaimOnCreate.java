package dev.drover.store;

import java.time.Instant;
import java.util.List;

/**
 * One create call's claim for a runner of this process ({@link CreateClaimer}): the offer it took
 * and the task it claimed on it. The runner learns of the claim only after the transaction
 * committed, and gets its slot back if the transaction failed or claimed nothing.
 */
final class ClaimOnCreate {
  private final List<CreateClaimer> claimers;
  private CreateClaimer.Offer offer;
  private Claim claim;

  ClaimOnCreate(List<CreateClaimer> claimers) {
    this.claimers = claimers;
  }

  /**
   * An offer for a task of {@code type}: asked of the claimers in turn the first time, and kept, so
   * that a transaction tried again claims on the same slot; null if none has a slot free.
   */
  CreateClaimer.Offer offer(String type, Instant now) {
    if (offer == null) {
      for (CreateClaimer c : claimers) {
        offer = c.offer(type, now);
        if (offer != null) {
          break;
        }
      }
    }
    return offer;
  }

  /** What the transaction claimed so far: null when it is tried (again) or claims nothing. */
  void claimed(Claim c) {
    claim = c;
  }

  /** The transaction committed: the runner takes what it claimed. True if a task went to it. */
  boolean committed() {
    if (offer == null) {
      return false;
    }
    if (claim != null) {
      offer.taken(claim);
      return true;
    }
    offer.withdrawn();
    return false;
  }

  /** The transaction failed: nothing was claimed, and the slot is free again. */
  void failed() {
    if (offer != null) {
      offer.withdrawn();
    }
  }
}
