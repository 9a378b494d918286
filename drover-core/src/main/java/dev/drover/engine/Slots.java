package dev.drover.engine;

import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import dev.drover.store.ClaimRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How many runs of each type may execute and be claimed now: a type's free worker slots under its
 * own {@code max_workers}, its worker group's cap and the runner's total, plus what it keeps
 * claimed ahead ({@link ClaimAhead}), less what is queued already. Loop thread only.
 */
final class Slots {
  private final RunBook book;
  private final TaskTypes types;
  private final ClaimAhead ahead;
  private int totalWorkers;

  Slots(RunBook book, TaskTypes types, ClaimAhead ahead, int totalWorkers) {
    this.book = book;
    this.types = types;
    this.ahead = ahead;
    this.totalWorkers = totalWorkers;
  }

  int totalWorkers() {
    return totalWorkers;
  }

  void resize(int total) {
    totalWorkers = total;
  }

  /** What to claim of each executable type that has room, in the types' order. */
  List<ClaimRequest> claimRequests(Instant now) {
    List<ClaimRequest> requests = new ArrayList<>();
    for (TaskType type : types.executable()) {
      int wanted = toClaim(type, now);
      if (wanted > 0) {
        requests.add(new ClaimRequest(type, type.lease(), wanted, PriorityShares.DEFAULT));
      }
    }
    return requests;
  }

  /**
   * How many of {@code type} to claim now. A type with a per-key limit claims for free slots only,
   * so that the limit, which counts leases, stays a limit on what executes.
   */
  private int toClaim(TaskType type, Instant now) {
    int keepAhead = type.maxPerKey() == null ? ahead.target(type.name(), most(type), now) : 0;
    return free(type) + keepAhead - book.queuedOf(type.name());
  }

  /** Slots of {@code type} no worker holds, under its own cap, its group's and the runner's. */
  int free(TaskType type) {
    int free =
        Math.min(
            type.maxWorkers() - book.slotsTaken(type.name()), totalWorkers - book.slotsTaken());
    Integer groupCap = types.groupCap(type.workerGroup()).orElse(null);
    if (groupCap != null) {
      int takenInGroup =
          types.inGroup(type.workerGroup()).stream().mapToInt(t -> book.slotsTaken(t.name())).sum();
      free = Math.min(free, groupCap - takenInGroup);
    }
    return Math.max(0, free);
  }

  /** The most workers {@code type} may have at once, under the same three caps. */
  private int most(TaskType type) {
    int most = Math.min(type.maxWorkers(), totalWorkers);
    return types.groupCap(type.workerGroup()).map(cap -> Math.min(most, cap)).orElse(most);
  }
}
