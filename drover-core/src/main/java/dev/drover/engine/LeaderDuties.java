package dev.drover.engine;

import dev.drover.model.TaskType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The singleton services, run by whichever runner holds the {@link Leadership}: the {@link
 * Rescuer}, the {@link RunnerPruner}, the {@link CountFolder} and the {@link VisitSchedulers}. Each
 * keeps its own pace; the visit passes run on a thread of their own ({@link
 * VisitSchedulingThread}).
 */
final class LeaderDuties {
  /** What the duties did in one pass. */
  record Done(boolean leading, int rescued, int pruned) {}

  private final Leadership leadership;
  private final Rescuer rescuer;
  private final RunnerPruner pruner;
  private final CountFolder counts;
  private final VisitSchedulingThread visits;

  LeaderDuties(
      Leadership leadership,
      Rescuer rescuer,
      RunnerPruner pruner,
      CountFolder counts,
      VisitSchedulingThread visits) {
    this.leadership = leadership;
    this.rescuer = rescuer;
    this.pruner = pruner;
    this.counts = counts;
    this.visits = visits;
  }

  /**
   * Renews or seeks the leadership, and runs the duties that are due if it leads, running {@code
   * between} after each step that may have gone to the database (the loop's other work that must
   * not wait for all of them).
   */
  Done runOnce(Instant now, List<TaskType> types, boolean runnerIdle, Runnable between) {
    boolean leading = leadership.tick(now);
    between.run();
    if (!leading) {
      visits.pause();
      return new Done(false, 0, 0);
    }
    int rescued = rescuer.runOnce(now);
    between.run();
    int pruned = pruner.runOnce(now);
    between.run();
    counts.runOnce(now);
    between.run();
    visits.runDue(now, types, runnerIdle);
    return new Done(true, rescued, pruned);
  }

  /** When the duties next need the loop: the leader lease's renewal or a visit pass. */
  Instant nextDue() {
    Instant lease = leadership.nextTry();
    Instant visit = visits.nextDue();
    return visit.isBefore(lease) ? visit : lease;
  }

  /**
   * Waits up to {@code timeout} for a visit pass running on its own thread to end (it may enqueue
   * work); true if none runs.
   */
  boolean awaitVisitPass(Duration timeout) throws InterruptedException {
    return visits.awaitPass(timeout);
  }

  /**
   * Lets a running visit pass end, then gives the leadership up, so another runner leads without
   * waiting for it to run out.
   */
  void release() {
    visits.close();
    leadership.release();
  }
}
