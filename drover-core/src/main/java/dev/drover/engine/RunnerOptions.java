package dev.drover.engine;

import static dev.drover.ValidationException.check;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;

/**
 * How a runner behaves. Immutable; each {@code with} method returns a validated copy.
 *
 * <ul>
 *   <li>{@code owner}: the name its claims are recorded under; unique per runner process
 *   <li>{@code runsDir}: where each run gets a directory for its output
 *   <li>{@code totalWorkers}: most tasks executing at once in this runner
 *   <li>{@code pollInterval}: longest wait between looks for due work when nothing wakes the runner
 *   <li>{@code exitOnIdle}: stop once nothing is due, running or waiting for a retry
 *   <li>{@code types}: the task types this runner claims; empty for every type it can execute
 *   <li>{@code gate}: what this runner guards, e.g. host and data dir: at most one active runner
 *       per gate; null for none (many runners sharing a PostgreSQL)
 *   <li>{@code takeoverGrace}: how long an active runner at the gate gets to drain and leave when a
 *       newcomer takes over; past it, it is killed if on this host
 *   <li>{@code standby}: at a busy gate, wait for the active runner to leave instead of taking over
 *   <li>{@code leaderLease}: how long the leadership of the singleton services (rescuer, pruning)
 *       holds unless renewed; another runner takes over within it when the leader dies
 *   <li>{@code runnerTimeout}: a runner on another host whose heartbeat is older is taken for dead
 *   <li>{@code workerIdle}: an idle worker thread ends after this long
 *   <li>{@code configFile}: a configuration file re-applied when it changes or on {@link
 *       Runner#requestReload()}; null for none
 *   <li>{@code totalWorkersFixed}: a reloaded {@code limits.total_workers} does not change the
 *       total
 *   <li>{@code claimAhead}: beyond its free slots, a runner keeps claimed as many tasks of a type
 *       as its workers finished of it in the last {@code claimAhead}, or would finish in it at the
 *       pace they ran its latest tasks; zero claims for free slots only
 *   <li>{@code outageBackoff}, {@code outageBackoffMax}: after a failed pass (the database is away)
 *       the runner waits {@code outageBackoff}, doubling with each failure up to the max
 * </ul>
 */
public final class RunnerOptions {
  public static final int DEFAULT_TOTAL_WORKERS = 8;
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
  public static final Duration DEFAULT_TAKEOVER_GRACE = Duration.ofSeconds(5);
  public static final Duration DEFAULT_LEADER_LEASE = Duration.ofSeconds(15);
  public static final Duration DEFAULT_RUNNER_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_WORKER_IDLE = Duration.ofSeconds(30);
  public static final Duration DEFAULT_CLAIM_AHEAD = Duration.ofMillis(100);
  public static final Duration DEFAULT_OUTAGE_BACKOFF = Duration.ofSeconds(1);
  public static final Duration DEFAULT_OUTAGE_BACKOFF_MAX = Duration.ofSeconds(30);

  private String owner;
  private Path runsDir;
  private int totalWorkers = DEFAULT_TOTAL_WORKERS;
  private Duration pollInterval = DEFAULT_POLL_INTERVAL;
  private boolean exitOnIdle = true;
  private Set<String> types = Set.of();
  private String gate;
  private Duration takeoverGrace = DEFAULT_TAKEOVER_GRACE;
  private boolean standby;
  private Duration leaderLease = DEFAULT_LEADER_LEASE;
  private Duration runnerTimeout = DEFAULT_RUNNER_TIMEOUT;
  private Duration workerIdle = DEFAULT_WORKER_IDLE;
  private Path configFile;
  private boolean totalWorkersFixed;
  private Duration claimAhead = DEFAULT_CLAIM_AHEAD;
  private Duration outageBackoff = DEFAULT_OUTAGE_BACKOFF;
  private Duration outageBackoffMax = DEFAULT_OUTAGE_BACKOFF_MAX;

  private RunnerOptions() {}

  /** Options with the defaults and an owner name made of host, pid and a random suffix. */
  public static RunnerOptions defaults(Path runsDir) {
    RunnerOptions o = new RunnerOptions();
    o.owner =
        ProcessIdentity.current().host()
            + ":"
            + ProcessHandle.current().pid()
            + ":"
            + UUID.randomUUID().toString().substring(0, 8);
    o.runsDir = runsDir;
    o.validate();
    return o;
  }

  private void validate() {
    check(owner != null && !owner.isBlank(), "owner", "a runner needs an owner name");
    check(runsDir != null, "runs_dir", "a runner needs a directory for run output");
    check(totalWorkers > 0, "total_workers", "must be positive, got " + totalWorkers);
    positive("poll_interval", pollInterval);
    check(
        takeoverGrace != null && !takeoverGrace.isNegative(),
        "takeover_grace",
        "must not be negative");
    positive("leader_lease", leaderLease);
    positive("runner_timeout", runnerTimeout);
    positive("worker_idle", workerIdle);
    check(gate == null || !gate.isBlank(), "gate", "must not be blank");
    check(claimAhead != null && !claimAhead.isNegative(), "claim_ahead", "must not be negative");
    positive("outage_backoff", outageBackoff);
    positive("outage_backoff_max", outageBackoffMax);
    check(
        outageBackoffMax.compareTo(outageBackoff) >= 0,
        "outage_backoff_max",
        "must not be shorter than outage_backoff (" + outageBackoff + ")");
  }

  private static void positive(String field, Duration d) {
    check(d != null && !d.isNegative() && !d.isZero(), field, "must be a positive duration");
  }

  private RunnerOptions copy(java.util.function.Consumer<RunnerOptions> change) {
    RunnerOptions o = new RunnerOptions();
    o.owner = owner;
    o.runsDir = runsDir;
    o.totalWorkers = totalWorkers;
    o.pollInterval = pollInterval;
    o.exitOnIdle = exitOnIdle;
    o.types = types;
    o.gate = gate;
    o.takeoverGrace = takeoverGrace;
    o.standby = standby;
    o.leaderLease = leaderLease;
    o.runnerTimeout = runnerTimeout;
    o.workerIdle = workerIdle;
    o.configFile = configFile;
    o.totalWorkersFixed = totalWorkersFixed;
    o.claimAhead = claimAhead;
    o.outageBackoff = outageBackoff;
    o.outageBackoffMax = outageBackoffMax;
    change.accept(o);
    o.validate();
    return o;
  }

  public RunnerOptions withOwner(String name) {
    return copy(o -> o.owner = name);
  }

  public RunnerOptions withTotalWorkers(int n) {
    return copy(o -> o.totalWorkers = n);
  }

  public RunnerOptions withPollInterval(Duration d) {
    return copy(o -> o.pollInterval = d);
  }

  public RunnerOptions withExitOnIdle(boolean b) {
    return copy(o -> o.exitOnIdle = b);
  }

  /** Claims only tasks of {@code names}; empty for every type the runner can execute. */
  public RunnerOptions withTypes(Set<String> names) {
    return copy(o -> o.types = names == null ? Set.of() : Set.copyOf(names));
  }

  /** Guards {@code gate} (null for none); see {@link Gate}. */
  public RunnerOptions withGate(String gate, Duration takeoverGrace, boolean standby) {
    return copy(
        o -> {
          o.gate = gate;
          o.takeoverGrace = takeoverGrace;
          o.standby = standby;
        });
  }

  public RunnerOptions withLeaderLease(Duration d) {
    return copy(o -> o.leaderLease = d);
  }

  public RunnerOptions withRunnerTimeout(Duration d) {
    return copy(o -> o.runnerTimeout = d);
  }

  public RunnerOptions withWorkerIdle(Duration d) {
    return copy(o -> o.workerIdle = d);
  }

  /** Re-applies {@code file} on change; with {@code totalFixed}, its worker total is ignored. */
  public RunnerOptions withConfigFile(Path file, boolean totalFixed) {
    return copy(
        o -> {
          o.configFile = file;
          o.totalWorkersFixed = totalFixed;
        });
  }

  public RunnerOptions withClaimAhead(Duration d) {
    return copy(o -> o.claimAhead = d);
  }

  /** Waits {@code first} after a failed pass, doubling with each failure up to {@code max}. */
  public RunnerOptions withOutageBackoff(Duration first, Duration max) {
    return copy(
        o -> {
          o.outageBackoff = first;
          o.outageBackoffMax = max;
        });
  }

  public String owner() {
    return owner;
  }

  public Path runsDir() {
    return runsDir;
  }

  public int totalWorkers() {
    return totalWorkers;
  }

  public Duration pollInterval() {
    return pollInterval;
  }

  public boolean exitOnIdle() {
    return exitOnIdle;
  }

  public Set<String> types() {
    return types;
  }

  public String gate() {
    return gate;
  }

  public Duration takeoverGrace() {
    return takeoverGrace;
  }

  public boolean standby() {
    return standby;
  }

  public Duration leaderLease() {
    return leaderLease;
  }

  public Duration runnerTimeout() {
    return runnerTimeout;
  }

  public Duration workerIdle() {
    return workerIdle;
  }

  public Path configFile() {
    return configFile;
  }

  public boolean totalWorkersFixed() {
    return totalWorkersFixed;
  }

  public Duration claimAhead() {
    return claimAhead;
  }

  public Duration outageBackoff() {
    return outageBackoff;
  }

  public Duration outageBackoffMax() {
    return outageBackoffMax;
  }
}
