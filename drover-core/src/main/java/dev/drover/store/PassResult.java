package dev.drover.store;

import java.util.List;

/**
 * What a committed {@link Pass} did.
 *
 * @param rejected the completions' leases that were lost before they could be written (rescued, or
 *     claimed again): their results were not written
 * @param claimed the tasks claimed, queued: each run is written when the pass that carries its
 *     start (or its end) commits
 * @param notKept the completions' leases whose runs ended but are not kept in the history (a
 *     success of a type that keeps only failures): no row names them, nor their output
 */
public record PassResult(List<Lease> rejected, List<Claim> claimed, List<Lease> notKept) {
  public PassResult {
    rejected = List.copyOf(rejected);
    claimed = List.copyOf(claimed);
    notKept = List.copyOf(notKept);
  }
}
