package dev.drover.bench;

import java.time.Duration;
import java.util.List;

/**
 * What every system and workload of one bench run is given.
 *
 * @param workers most tasks executing at once (worker threads)
 * @param pollInterval how often an idle system looks for new work, where it lets us choose
 * @param samples pickup samples per system and database
 * @param burndownTasks tasks pre-inserted for the burn-down workload
 * @param warmup pickups taken back to back and thrown away first (connections, JIT)
 * @param timeout longest wait for any one thing (a pickup, a burn-down) before the run fails
 * @param load the sizes of the sustained, scaling and database-cost workloads
 * @param origins listed origins the frontier workload loads
 * @param grabs timed grabs per policy of the frontier workload
 * @param visitFor how long the visit workload measures its queue once warm
 */
record Settings(
    int workers,
    Duration pollInterval,
    int samples,
    int burndownTasks,
    int warmup,
    Duration timeout,
    Load load,
    int origins,
    int grabs,
    Duration visitFor) {
  /**
   * @param rate tasks enqueued per second by the sustained workload
   * @param sustainFor how long the sustained workload enqueues
   * @param scaleSizes queue sizes the scaling workload burns down
   * @param scaleCap longest a system may take to insert, and then to burn down, one scaling size
   * @param scaleWarmup tasks the scaling workload burns down, unmeasured, before its sizes
   * @param costTasks tasks burnt down while the database-cost workload reads PostgreSQL's
   *     statistics
   */
  record Load(
      int rate,
      Duration sustainFor,
      List<Integer> scaleSizes,
      Duration scaleCap,
      int scaleWarmup,
      int costTasks) {}
}
