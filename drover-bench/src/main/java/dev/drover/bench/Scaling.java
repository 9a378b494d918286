package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scaling: the burn-down at several queue sizes (by default 10k, 100k and 1M), each on a fresh
 * database and a new instance of the system, to see whether throughput holds as the queue grows.
 * Each size gets a time cap for inserting and another for burning down, so a slow system cannot
 * hang the run: past the cap it is reported as not finished, with the rate it reached so far.
 */
final class Scaling implements Workload {
  static final String NAME = "scaling";
  private static final int INSERT_CHUNK = 10_000;
  private static final Duration CHECK_DONE_EVERY = Duration.ofMillis(20);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "burn-down jobs/s against queue size";
  }

  @Override
  public List<Column> columns() {
    return List.of();
  }

  @Override
  public List<Column> columns(Settings settings) {
    List<Column> columns = new ArrayList<>();
    for (int size : settings.load().scaleSizes()) {
      columns.add(new Column(key(size), "jobs/s @ " + label(size)));
    }
    columns.add(new Column("spread_pct", "spread %"));
    return columns;
  }

  @Override
  public Plot plot() {
    return new Plot("Scaling: burn-down jobs/s at each queue size", "jobs_per_s", null, false);
  }

  @Override
  public List<Plot> plots(Settings settings) {
    List<Plot> plots = new ArrayList<>();
    for (int size : settings.load().scaleSizes()) {
      plots.add(
          new Plot(
              "Scaling: burn-down jobs/s with " + label(size) + " queued", key(size), null, false));
    }
    return plots;
  }

  @Override
  public List<Ratio> ratios(Settings settings) {
    return settings.load().scaleSizes().stream()
        .map(s -> new Ratio(key(s), "jobs/s @ " + label(s), true))
        .toList();
  }

  @Override
  public String cell(Result r, Column column) {
    if (column.key().equals("spread_pct")
        && Double.isNaN(r.figures().get(column.key()).doubleValue())) {
      return "n/a"; // some size did not finish
    }
    Number finished = r.figures().get(column.key() + "_finished");
    Number filled = r.figures().get(column.key() + "_filled");
    String value = Report.format(r.figures().get(column.key()));
    if (filled != null && filled.intValue() == 0) {
      return "queue not filled in " + r.figures().get(column.key() + "_cap_s") + " s";
    }
    if (finished != null && finished.intValue() == 0) {
      return "did not finish in "
          + r.figures().get(column.key() + "_cap_s")
          + " s ("
          + value
          + " so far)";
    }
    return value;
  }

  /** The unmeasured burn-down before the sizes takes at most this many tasks. */
  static final int WARMUP = 100_000;

  /** Tasks of the unmeasured burn-down before sizes whose smallest is {@code smallest}. */
  static int warmup(int smallest) {
    return Math.min(WARMUP, 10 * smallest);
  }

  /**
   * Warm-up rounds at most, each a new instance on a new database: a round after which the JIT's
   * compilers used less than {@link #JIT_SETTLED} of a core is the last. On two cores HotSpot's C2
   * went on compiling at 0.3–1.0 of a core for 20–30 s of burn-downs, and a burn-down of 100,000
   * lasts 3–7 s: one round left the measured run sharing the cores with it.
   */
  static final int WARMUP_ROUNDS = 4;

  /** The compilers' share of a core under which the JIT counts as settled. */
  static final double JIT_SETTLED = 0.1;

  /** Warm-ups this large (full size, not smoke) take up to {@link #WARMUP_ROUNDS} rounds. */
  static final int FULL_WARMUP = 10_000;

  /** How long the JIT must have compiled nothing for the warm-up to be over. */
  static final Duration JIT_QUIET = Duration.ofMillis(500);

  /** How long the warm-up may take to insert, and then to burn down. */
  static final Duration WARMUP_CAP = Duration.ofSeconds(20);

  static String key(int size) {
    return "jobs_per_s_" + size;
  }

  static String label(int size) {
    return size % 1_000_000 == 0
        ? size / 1_000_000 + "M"
        : size % 1000 == 0 ? size / 1000 + "k" : Integer.toString(size);
  }

  @Override
  public Measurement run(SystemUnderTest first, BenchDb db, Settings settings) throws Exception {
    Map<String, Number> figures = new LinkedHashMap<>();
    Map<String, Object> raw = new LinkedHashMap<>();
    double min = Double.MAX_VALUE;
    double max = 0;
    boolean allFinished = true;
    // A burn-down first, not measured, so that the first size does not time the JVM compiling the
    // system's code (the same for every system; pickup warms up likewise). On two cores the
    // compiler competes with the database for a while: after a warm-up of 5,000 tasks Drover burnt
    // 10,000 down at 5,400 jobs/s on PostgreSQL, twice in a row, and at 8,200 after 100,000.
    raw.put("warmup", warmUp(first.name(), db, settings, settings.load().scaleWarmup()));
    for (int size : settings.load().scaleSizes()) {
      // Every size gets a new instance of the system; the one the bench passed in is left unopened.
      BenchDb fresh = Databases.sibling(db, "n" + size);
      Map<String, Number> one;
      try (SystemUnderTest system = Bench.SYSTEMS.get(first.name()).get()) {
        one = burnDown(system, fresh, settings, size, settings.load().scaleCap(), false);
      } finally {
        Databases.dropSibling(db, fresh);
      }
      double rate = one.get("jobs_per_s").doubleValue();
      figures.put(key(size), rate);
      figures.put(key(size) + "_finished", one.get("finished"));
      figures.put(key(size) + "_filled", one.get("inserted").intValue() == size ? 1 : 0);
      figures.put(key(size) + "_cap_s", settings.load().scaleCap().toSeconds());
      raw.put("n" + size, one);
      allFinished &= one.get("finished").intValue() == 1;
      min = Math.min(min, rate);
      max = Math.max(max, rate);
    }
    // How far the slowest size is from the fastest, as a share of the fastest.
    figures.put("spread_pct", allFinished && max > 0 ? 100 * (max - min) / max : Double.NaN);
    return new Measurement(figures, raw);
  }

  /**
   * An unmeasured burn-down of {@code tasks} by a new instance of the system named {@code system},
   * on a sibling of {@code db}, so that what is measured next does not time the JVM compiling that
   * system's code and the code it shares with the other systems (the JDBC driver, the pool, the
   * JDK's own). Without it the first system of a run paid for compiling the shared code, and each
   * later one found it compiled. Returns the warm-up's figures.
   */
  static Map<String, Number> warmUp(String system, BenchDb db, Settings settings, int tasks)
      throws Exception {
    Duration cap =
        WARMUP_CAP.compareTo(settings.load().scaleCap()) < 0
            ? WARMUP_CAP
            : settings.load().scaleCap();
    Map<String, Number> figures = new LinkedHashMap<>();
    int rounds = tasks >= FULL_WARMUP ? WARMUP_ROUNDS : 1;
    for (int round = 1; round <= rounds; round++) {
      long compilingBefore = CpuMeter.compilerNanos();
      long start = System.nanoTime();
      BenchDb warmupDb = Databases.sibling(db, "warmup" + round);
      try (SystemUnderTest warming = Bench.SYSTEMS.get(system).get()) {
        figures.putAll(burnDown(warming, warmupDb, settings, tasks, cap, true));
      } finally {
        Databases.dropSibling(db, warmupDb);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double compilingShare = (CpuMeter.compilerNanos() - compilingBefore) / 1e9 / seconds;
      figures.put("rounds", round);
      figures.put("compiler_cores_last_round", compilingShare);
      if (compilingBefore < 0 || compilingShare < JIT_SETTLED) {
        break;
      }
    }
    // As long as the warm-up's own cap for a full-size warm-up, and next to nothing in smoke mode.
    Duration quietCap = Duration.ofMillis(Math.min(WARMUP_CAP.toMillis(), tasks / 5));
    figures.put("jit_quiet_after_ms", awaitQuietJit(quietCap).toMillis());
    return figures;
  }

  /**
   * Waits until the JIT's compiler threads have used no CPU for {@link #JIT_QUIET} (at most {@code
   * cap}), and returns how long that took. A warm-up leaves a queue of methods to compile, and on
   * two cores compiling them competes with what is measured next: right after a warm-up of 100,000
   * tasks Drover's burn-down still spent 30–34 µs of CPU a job on its side, against 11–12 µs later
   * in the same run. The compilers' threads are read from Linux's {@code /proc/self/task} (the
   * JVM's own total compilation time grows only when a compilation ends, and one can take longer
   * than the quiet period); elsewhere this does not wait.
   */
  static Duration awaitQuietJit(Duration cap) throws InterruptedException {
    long start = System.nanoTime();
    long last = CpuMeter.compilerNanos();
    if (last < 0) {
      return Duration.ZERO;
    }
    long quietSince = start;
    while (System.nanoTime() - quietSince < JIT_QUIET.toNanos()
        && System.nanoTime() - start < cap.toNanos()) {
      Thread.sleep(50);
      long now = CpuMeter.compilerNanos();
      if (now != last) {
        last = now;
        quietSince = System.nanoTime();
      }
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /**
   * Inserts {@code n} tasks, then burns them down, each within {@code cap}. A queue that did not
   * reach {@code n} in time is not measured, unless {@code burnWhatWasInserted} (the warm-up, for a
   * system that inserts slowly).
   */
  private static Map<String, Number> burnDown(
      SystemUnderTest system,
      BenchDb db,
      Settings settings,
      int n,
      Duration cap,
      boolean burnWhatWasInserted)
      throws Exception {
    CountDownLatch allStarted = new CountDownLatch(n);
    AtomicLong firstStart = new AtomicLong();
    AtomicLong lastStart = new AtomicLong();
    system.open(
        db,
        settings,
        seq -> {
          long now = System.nanoTime();
          firstStart.compareAndSet(0, now);
          lastStart.accumulateAndGet(now, Math::max);
          allStarted.countDown();
        });
    Map<String, Number> one = new LinkedHashMap<>();
    one.put("tasks", n);
    long insertStart = System.nanoTime();
    long insertDeadline = insertStart + cap.toNanos();
    int inserted = 0;
    while (inserted < n && System.nanoTime() < insertDeadline) {
      int chunk = Math.min(INSERT_CHUNK, n - inserted);
      system.insertBatch(inserted, chunk);
      inserted += chunk;
    }
    double insertSeconds = (System.nanoTime() - insertStart) / 1e9;
    one.put("inserted", inserted);
    one.put("insert_seconds", insertSeconds);
    if (inserted < n && burnWhatWasInserted) {
      for (int never = inserted; never < n; never++) {
        allStarted.countDown(); // tasks that were not inserted will not start
      }
      n = inserted;
    } else if (inserted < n) {
      // The queue never reached this size: nothing to measure at it.
      one.put("finished", 0);
      one.put("seconds", 0);
      one.put("jobs_per_s", Double.NaN);
      return one;
    }
    long done;
    long start;
    long end;
    CpuMeter.Reading spent;
    String walFrom = SqlProfile.ENABLED ? SqlProfile.walPosition(db.jdbcUrl()) : null;
    String walTo;
    long compilingBefore = CpuMeter.compilerNanos();
    long compilingAfter;
    try (CpuMeter cpu = new CpuMeter()) {
      start = System.nanoTime();
      long deadline = start + cap.toNanos();
      system.startWorkers();
      boolean started = allStarted.await(cap.toMillis(), TimeUnit.MILLISECONDS);
      if (started) {
        while ((done = system.completed()) < n && System.nanoTime() < deadline) {
          Thread.sleep(CHECK_DONE_EVERY.toMillis());
        }
      } else {
        done = system.completed();
      }
      end = System.nanoTime();
      compilingAfter = CpuMeter.compilerNanos();
      spent = cpu.stop();
      walTo = walFrom == null ? null : SqlProfile.walPosition(db.jdbcUrl());
    }
    double seconds = (end - start) / 1e9;
    one.put("finished", done >= n ? 1 : 0);
    one.put("done", done);
    one.put("seconds", seconds);
    one.put("jobs_per_s", done / seconds);
    // Where the time went: until the first task started, and from the last start until all were
    // recorded done (a short burn-down is mostly these two).
    if (firstStart.get() != 0) {
      one.put("first_start_ms", (firstStart.get() - start) / 1e6);
      one.put("last_start_to_done_ms", (end - lastStart.get()) / 1e6);
    }
    // The JIT's compilers' CPU in the window (in 10 ms ticks): on two cores they compete with
    // what is measured, most in a short burn-down.
    if (compilingBefore >= 0) {
      one.put("compiler_ms", (compilingAfter - compilingBefore) / 1e6);
    }
    if (spent.serverSeconds() != null && db.kind() == Kind.POSTGRES) {
      one.put("server_cpu_us_per_job", spent.serverSeconds() * 1e6 / done);
    }
    // With profiling on: the WAL the burn-down wrote, and how much of it was whole pages, which
    // PostgreSQL logs at a page's first change after a checkpoint.
    long[] wal = SqlProfile.walBytesBetween(db.jdbcUrl(), walFrom, walTo);
    if (wal != null && done > 0) {
      one.put("wal_bytes_per_job", (wal[0] + wal[1]) / (double) done);
      one.put("wal_fpi_bytes_per_job", wal[1] / (double) done);
    }
    if (spent.clientSeconds() != null) {
      one.put("client_cpu_us_per_job", spent.clientSeconds() * 1e6 / done);
    }
    return one;
  }
}
