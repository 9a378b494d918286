package dev.drover.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.drover.Drover;
import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.RunnerStats;
import dev.drover.frontier.Lister;
import dev.drover.model.TaskType;
import dev.drover.store.FrontierStore;
import dev.drover.store.StoreLocation;
import dev.drover.store.StoreOptions;
import dev.drover.store.Stores;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The leader's visit scheduler feeding a fast crawl: the frontier workload's origins, a {@code
 * load-git} task type with a queue of {@value #QUEUE}, and one runner that leads (so schedules the
 * visits) and runs them, each visit ending on a clock that lets {@value #VISITS_PER_SECOND} end per
 * second. Each visit's end updates its origin's visit stats, as a real one does. Once warm, the
 * workload samples the queue's length every {@value #SAMPLE_MILLIS} ms and reads what the
 * scheduling passes cost the leader's visit thread, in wall and CPU time.
 *
 * <p>If the scheduler kept up, visits end at the clock's rate and the queue never runs dry.
 */
final class Visits implements Workload {
  static final String NAME = "visits";
  static final int QUEUE = 1000;
  static final int VISITS_PER_SECOND = 1000;
  private static final String TYPE = "load-" + Frontier.VISIT_TYPE;

  /** Enough workers that the clock, not a free worker, decides when a visit ends. */
  private static final int WORKERS = 16;

  /** The runner's thread that runs the visit passes (VisitSchedulingThread). */
  private static final String PASS_THREAD = "drover-visit-scheduler";

  private static final int SAMPLE_MILLIS = 100;
  private static final Duration WARMUP = Duration.ofSeconds(5);

  /**
   * Passes the warm-up also waits for: the first grabs return the origins the stats load left
   * awaiting or cooling past their cooldowns (tens of thousands at 1M, several seconds), a one-time
   * cost that is not the steady state measured.
   */
  private static final int WARMUP_PASSES = 3;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "visit scheduler: a load-git queue of "
        + QUEUE
        + " fed while visits end at up to "
        + VISITS_PER_SECOND
        + "/s";
  }

  @Override
  public boolean supports(SystemUnderTest system) {
    // Drover alone: the frontier does not depend on a task type's run history.
    return system.name().equals(Ratios.DROVER);
  }

  @Override
  public List<Column> columns() {
    return List.of(
        new Column("origins", "origins"),
        new Column("visits_per_s", "visits/s"),
        new Column("queue_mean", "queue mean"),
        new Column("queue_p5", "queue p5"),
        new Column("queue_min", "queue min"),
        new Column("passes_per_s", "passes/s"),
        new Column("pass_mean_ms", "pass ms"),
        new Column("pass_cpu_pct", "pass thread CPU % of a core"),
        new Column("pass_server_cpu_pct", "server CPU % of a core"),
        new Column("pass_total_cpu_pct", "pass CPU % of a core, both"),
        new Column("pass_wall_pct", "pass wall %"));
  }

  @Override
  public Plot plot() {
    return new Plot(
        "Visit scheduling passes, % of a core (bar CPU of the runner and the server, whisker wall"
            + " time)",
        "pass_total_cpu_pct", "pass_wall_pct", false);
  }

  @Override
  public Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    // On PostgreSQL the passes' statements run in the server's processes: a pool that counts their
    // CPU time while the pass thread holds a connection. On SQLite they run in the pass thread: a
    // probe splits its CPU time by the store's steps.
    StatementCpuProbe steps = db.kind() == Kind.SQLITE ? new StatementCpuProbe(PASS_THREAD) : null;
    try (BackendCpuPool pool =
        db.kind() == Kind.POSTGRES ? new BackendCpuPool(db.jdbcUrl(), PASS_THREAD) : null) {
      ((DroverSystem) system)
          .use(
              pool != null
                  ? Drover.open(pool)
                  : Drover.of(
                      Stores.open(
                          StoreLocation.dataDir(db.dir()), StoreOptions.DEFAULT.withProbe(steps)),
                      Clock.systemUTC()));
      return run(((DroverSystem) system).drover(), pool, steps, db, settings);
    }
  }

  private static Measurement run(
      Drover drover, BackendCpuPool pool, StatementCpuProbe steps, BenchDb db, Settings settings)
      throws Exception {
    FrontierStore frontier = drover.frontier();
    int n = settings.origins();
    Instant now = Instant.now();
    List<Lister> listers = Frontier.listers(frontier, now);
    Frontier.record(frontier, listers, 0, n, now, now, db);
    Frontier.loadStats(frontier, n, now, db);
    // The frontier as a crawl that has run a while leaves it: no bulk load's dead rows to vacuum.
    Frontier.vacuum(db);
    drover.taskTypeCreate(
        TaskType.builder(TYPE)
            .description("visits of drover-bench")
            .maxQueueLength(QUEUE)
            .maxWorkers(WORKERS)
            .build());

    RunnerOptions options =
        RunnerOptions.defaults(db.dir().resolve("visit-runs"))
            .withTotalWorkers(WORKERS)
            .withPollInterval(settings.pollInterval())
            .withExitOnIdle(false);
    Runner runner =
        drover
            .runner(options.runsDir())
            .options(options)
            .handler(TYPE, paced(VISITS_PER_SECOND))
            .commands(
                (type, arguments, runDir, env) -> {
                  throw new IllegalStateException("drover-bench has no command task types");
                })
            .build();
    Thread loop = new Thread(() -> runQuietly(runner), "bench-visit-runner");
    loop.setDaemon(true);
    loop.start();
    try {
      Thread.sleep(WARMUP.toMillis());
      RunnerStats stats = runner.stats();
      long deadline = System.nanoTime() + settings.timeout().toNanos();
      while (stats.visitPasses() < WARMUP_PASSES && System.nanoTime() < deadline) {
        Thread.sleep(SAMPLE_MILLIS);
      }
      return measure(drover, stats, pool, steps, n, settings.visitFor(), db);
    } finally {
      runner.stop(Duration.ofSeconds(5));
      loop.join(Duration.ofSeconds(30).toMillis());
    }
  }

  private static Measurement measure(
      Drover drover,
      RunnerStats stats,
      BackendCpuPool pool,
      StatementCpuProbe steps,
      int n,
      Duration length,
      BenchDb db)
      throws Exception {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long visits0 = stats.eventful();
    long passes0 = stats.visitPasses();
    double passSeconds0 = stats.visitPassSeconds();
    double passCpu0 = stats.visitPassCpuSeconds();
    long processCpu0 = os.getProcessCpuTime();
    double serverCpu0 = pool == null ? 0 : pool.cpuSeconds();
    double serverWait0 = pool == null ? 0 : pool.runQueueSeconds();
    double probeCpu0 = pool == null ? 0 : pool.probeCpuSeconds();
    if (pool != null) {
      pool.resetByStatement();
    }
    if (steps != null) {
      steps.reset();
    }
    SqlProfile.reset(db.jdbcUrl());
    long start = System.nanoTime();
    long end = start + length.toNanos();
    int[] depths = new int[(int) (length.toMillis() / SAMPLE_MILLIS) + 1];
    int samples = 0;
    while (System.nanoTime() < end && samples < depths.length) {
      depths[samples++] = (int) drover.store().taskCountOutstanding(List.of(TYPE), Instant.now());
      Thread.sleep(SAMPLE_MILLIS);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long passes = stats.visitPasses() - passes0;
    double passSeconds = stats.visitPassSeconds() - passSeconds0;
    double passThreadCpu = stats.visitPassCpuSeconds() - passCpu0;
    // The pool's counting runs on the pass thread too; it is the bench's cost, not the passes'.
    double probeCpu = pool == null ? 0 : pool.probeCpuSeconds() - probeCpu0;
    double passCpu = passThreadCpu - probeCpu;
    double serverCpu = pool == null ? 0 : pool.cpuSeconds() - serverCpu0;
    int[] sampled = Arrays.copyOf(depths, samples);

    Map<String, Number> figures = new LinkedHashMap<>();
    figures.put("origins", n);
    figures.put("visits_per_s", (stats.eventful() - visits0) / seconds);
    figures.put("queue_mean", Arrays.stream(sampled).average().orElse(0));
    int[] sorted = sampled.clone();
    Arrays.sort(sorted);
    figures.put("queue_p5", sorted.length == 0 ? 0 : sorted[sorted.length / 20]);
    figures.put("queue_min", Arrays.stream(sampled).min().orElse(0));
    figures.put("passes_per_s", passes / seconds);
    figures.put("pass_mean_ms", passes == 0 ? 0 : passSeconds * 1000 / passes);
    figures.put("pass_cpu_pct", 100 * passCpu / seconds);
    figures.put("pass_server_cpu_pct", 100 * serverCpu / seconds);
    figures.put("pass_total_cpu_pct", 100 * (passCpu + serverCpu) / seconds);
    figures.put("pass_wall_pct", 100 * passSeconds / seconds);
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("seconds", seconds);
    raw.put("queue_samples", sampled);
    raw.put("sample_ms", SAMPLE_MILLIS);
    raw.put("passes", passes);
    raw.put("process_cpu_pct", 100 * (os.getProcessCpuTime() - processCpu0) / 1e9 / seconds);
    raw.put("workers", WORKERS);
    if (pool != null) {
      // How long the passes' backends waited for a core: the part of their statements' wall time
      // that pg_stat_statements counts and the CPU time does not.
      raw.put("pass_server_run_queue_s", pool.runQueueSeconds() - serverWait0);
      raw.put("pass_server_cpu_s", serverCpu);
      // The pass thread's CPU as measured, and the part of it the pool's counting took, which
      // pass_cpu_pct leaves out.
      raw.put("pass_thread_cpu_s_with_probe", passThreadCpu);
      raw.put("probe_cpu_s", probeCpu);
      // Over the measured time: where the server's CPU for the passes goes.
      raw.put("pass_server_cpu_s_by_statement", pool.cpuSecondsByStatement());
    }
    if (steps != null) {
      // Over the measured time: the pass thread's CPU (SQLite's work included) by store step.
      raw.put("pass_cpu_s_by_step", steps.cpuSeconds());
    }
    if (SqlProfile.ENABLED && db.jdbcUrl() != null) {
      // The database's side of the passes (the grabs, the queue counts, the task inserts) among
      // the runner's: enough statements to hold them all.
      raw.put("sql_profile", SqlProfile.top(db.jdbcUrl(), 300));
    }
    return new Measurement(figures, raw);
  }

  /**
   * A visit that ends on a shared clock ticking {@code perSecond} times a second: each takes the
   * next tick, or now if the clock fell behind (a visit not there to run is not made up for later).
   */
  private static TaskHandler paced(int perSecond) {
    long period = 1_000_000_000L / perSecond;
    AtomicLong nextTick = new AtomicLong(System.nanoTime());
    return context -> {
      long tick =
          nextTick.accumulateAndGet(System.nanoTime(), (t, now) -> Math.max(t + period, now));
      long wait;
      while ((wait = tick - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
      }
      return Outcome.eventful();
    };
  }

  private static void runQuietly(Runner runner) {
    try {
      runner.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
