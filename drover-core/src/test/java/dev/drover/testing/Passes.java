package dev.drover.testing;

import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import dev.drover.store.Claim;
import dev.drover.store.ClaimRequest;
import dev.drover.store.Completion;
import dev.drover.store.Lease;
import dev.drover.store.Pass;
import dev.drover.store.PassResult;
import dev.drover.store.RunStarted;
import dev.drover.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Drives the store's one claim path, {@link Store#taskPass}, the way a runner does, for tests that
 * need a lease, a begun run or a completion: each call is one pass, so one transaction.
 */
public final class Passes {
  private Passes() {}

  /** Claims up to {@code limit} of {@code type}, queued: no run is written yet. */
  public static List<Claim> claim(
      Store s, TaskType type, String owner, Instant now, Duration lease, int limit) {
    return claim(s, type, owner, now, lease, limit, PriorityShares.DEFAULT);
  }

  /** As {@link #claim(Store, TaskType, String, Instant, Duration, int)}, split by shares. */
  public static List<Claim> claim(
      Store s,
      TaskType type,
      String owner,
      Instant now,
      Duration lease,
      int limit,
      PriorityShares shares) {
    ClaimRequest request = new ClaimRequest(type, lease, limit, shares);
    return s.taskPass(new Pass(owner, now, List.of(), List.of(), List.of(request))).claimed();
  }

  /**
   * Writes the runs of {@code claims} started at {@code at}, as a runner's next pass does once its
   * workers began them (the pass's {@code started} list).
   */
  public static void start(Store s, String owner, List<Claim> claims, Instant at) {
    List<RunStarted> started = claims.stream().map(c -> new RunStarted(c, at)).toList();
    s.taskPass(new Pass(owner, at, started, List.of(), List.of()));
  }

  /** Claims, then begins what it claimed at {@code now}: two passes, the runs written started. */
  public static List<Claim> claimStarted(
      Store s, TaskType type, String owner, Instant now, Duration lease, int limit) {
    List<Claim> claims = claim(s, type, owner, now, lease, limit);
    start(s, owner, claims, now);
    return claims;
  }

  /** Writes {@code completions} in one pass; returns the leases that were lost (not written). */
  public static List<Lease> complete(
      Store s, String owner, List<Completion> completions, Instant at) {
    return pass(s, owner, at, List.of(), completions).rejected();
  }

  /** One pass that writes starts and completions and claims nothing. */
  public static PassResult pass(
      Store s, String owner, Instant at, List<RunStarted> started, List<Completion> completions) {
    return s.taskPass(new Pass(owner, at, started, completions, List.of()));
  }
}
