package dev.drover.engine;

import static dev.drover.ValidationException.check;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;

/**
 * How a runner behaves. Validated on construction.
 *
 * @param owner the name its claims are recorded under; unique per runner process
 * @param runsDir where each run gets a directory for its output
 * @param totalWorkers most tasks executing at once in this runner
 * @param pollInterval longest wait between looks for due work when nothing wakes the runner
 * @param exitOnIdle stop once nothing is due, running or waiting for a retry
 * @param types the task types this runner claims; empty for every type it can execute
 */
public record RunnerOptions(
    String owner, Path runsDir, int totalWorkers, Duration pollInterval, boolean exitOnIdle, Set<String> types) {
  public static final int DEFAULT_TOTAL_WORKERS = 8;
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

  public RunnerOptions {
    check(owner != null && !owner.isBlank(), "owner", "a runner needs an owner name");
    check(runsDir != null, "runs_dir", "a runner needs a directory for run output");
    check(totalWorkers > 0, "total_workers", "must be positive, got " + totalWorkers);
    check(pollInterval != null && !pollInterval.isNegative() && !pollInterval.isZero(), "poll_interval",
        "must be a positive duration");
    types = types == null ? Set.of() : Set.copyOf(types);
  }

  /** Options with the defaults and an owner name made of host, pid and a random suffix. */
  public static RunnerOptions defaults(Path runsDir) {
    return new RunnerOptions(defaultOwner(), runsDir, DEFAULT_TOTAL_WORKERS, DEFAULT_POLL_INTERVAL, true, Set.of());
  }

  public RunnerOptions withTotalWorkers(int n) {
    return new RunnerOptions(owner, runsDir, n, pollInterval, exitOnIdle, types);
  }

  public RunnerOptions withPollInterval(Duration d) {
    return new RunnerOptions(owner, runsDir, totalWorkers, d, exitOnIdle, types);
  }

  public RunnerOptions withExitOnIdle(boolean b) {
    return new RunnerOptions(owner, runsDir, totalWorkers, pollInterval, b, types);
  }

  /** Claims only tasks of {@code names}; empty for every type the runner can execute. */
  public RunnerOptions withTypes(Set<String> names) {
    return new RunnerOptions(owner, runsDir, totalWorkers, pollInterval, exitOnIdle, names);
  }

  static String defaultOwner() {
    // RuntimeMXBean's name is "pid@host".
    String[] pidAtHost = ManagementFactory.getRuntimeMXBean().getName().split("@", 2);
    String host = pidAtHost.length == 2 ? pidAtHost[1] : "localhost";
    return host + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
  }
}
