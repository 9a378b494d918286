package dev.drover.bench;

import java.time.Duration;

/**
 * What every system and workload of one bench run is given.
 *
 * @param workers most tasks executing at once (worker threads)
 * @param pollInterval how often an idle system looks for new work, where it lets us choose
 * @param samples pickup samples per system and database
 * @param burndownTasks tasks pre-inserted for the burn-down workload
 * @param warmup pickup samples taken and thrown away first (connections, JIT)
 * @param timeout longest wait for any one thing (a pickup, a burn-down) before the run fails
 * @param origins listed origins the frontier workload loads
 * @param grabs timed grabs per policy of the frontier workload
 */
record Settings(int workers, Duration pollInterval, int samples, int burndownTasks, int warmup, Duration timeout,
    int origins, int grabs) {}
