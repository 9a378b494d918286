package dev.drover.store;

import java.time.Instant;
import java.util.List;

/**
 * What one pass of a runner writes and claims, in one transaction ({@link Store#taskPass}): the
 * starts of queued runs its workers began, the ends of runs they finished, and claims for its free
 * slots. Immutable: the runner builds it before the transaction and changes nothing in memory until
 * the {@link PassResult} comes back, committed.
 *
 * @param owner the runner whose leases these are
 * @param now the time of the pass: claims lease from it, runs end at it
 * @param started queued runs a worker began that have not ended yet, to be written started
 * @param completions ends of runs, each written only if its lease is still held
 * @param claims what to claim, in order, once the runs are written
 */
public record Pass(
    String owner,
    Instant now,
    List<RunStarted> started,
    List<Completion> completions,
    List<ClaimRequest> claims) {
  public Pass {
    started = List.copyOf(started);
    completions = List.copyOf(completions);
    claims = List.copyOf(claims);
  }

  /** True if the pass neither writes nor claims anything: no transaction is needed. */
  public boolean isEmpty() {
    return started.isEmpty() && completions.isEmpty() && claims.isEmpty();
  }
}
