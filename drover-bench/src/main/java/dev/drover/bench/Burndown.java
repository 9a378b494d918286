package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Burn-down: N no-op one-shot tasks inserted before any worker runs, then timed from starting the
 * workers until the database records all N done (the way River and graphile-worker measure).
 */
final class Burndown implements Workload {
  static final String NAME = "burndown";
  private static final Duration CHECK_DONE_EVERY = Duration.ofMillis(10);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "burn-down of pre-inserted no-op tasks";
  }

  @Override
  public List<Column> columns() {
    return List.of(
        new Column("tasks", "tasks"),
        new Column("seconds", "seconds"),
        new Column("jobs_per_s", "jobs/s"),
        new Column("inserts_per_s", "inserts/s"),
        new Column("server_cpu_us_per_job", "server CPU µs/job"),
        new Column("client_cpu_us_per_job", "client CPU µs/job"));
  }

  @Override
  public Plot plot() {
    return new Plot("Burn-down throughput, jobs/s", "jobs_per_s", null, false);
  }

  @Override
  public List<Ratio> ratios(Settings settings) {
    return List.of(new Ratio("jobs_per_s", "jobs/s", true));
  }

  @Override
  public Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    Map<String, Number> warmup = warmUp(system, db, settings);
    Measurement m = measure(system, db, settings);
    Map<String, Object> raw = new LinkedHashMap<>(m.raw());
    raw.put("warmup", warmup);
    return new Measurement(m.figures(), raw);
  }

  /**
   * The unmeasured burn-down before the measured one, as many tasks (at most {@link
   * Scaling#WARMUP}): every system is measured warm, whatever its place in the run.
   */
  static Map<String, Number> warmUp(SystemUnderTest system, BenchDb db, Settings settings)
      throws Exception {
    return Scaling.warmUp(
        system.name(), db, settings, Math.min(Scaling.WARMUP, settings.burndownTasks()));
  }

  /** The measured burn-down, on {@code system} as it is (not warmed up here). */
  Measurement measure(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    int n = settings.burndownTasks();
    CountDownLatch allStarted = new CountDownLatch(n);
    system.open(db, settings, seq -> allStarted.countDown());
    long insertStart = System.nanoTime();
    system.insertBatch(0, n);
    double insertSeconds = (System.nanoTime() - insertStart) / 1e9;

    SqlProfile.reset(db.jdbcUrl());
    double seconds;
    CpuMeter.Reading spent;
    try (CpuMeter cpu = new CpuMeter()) {
      long start = System.nanoTime();
      system.startWorkers();
      if (!allStarted.await(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
        throw new TimeoutException(
            allStarted.getCount() + " of " + n + " tasks not started after " + settings.timeout());
      }
      // Counting done tasks is a query over the whole table, so it only starts once every handler
      // has run and just the last completions are left to be written.
      Workload.awaitCompleted(system, n, CHECK_DONE_EVERY, settings.timeout());
      seconds = (System.nanoTime() - start) / 1e9;
      spent = cpu.stop();
    }

    Map<String, Number> figures = new LinkedHashMap<>();
    figures.put("tasks", n);
    figures.put("seconds", seconds);
    figures.put("jobs_per_s", n / seconds);
    figures.put("inserts_per_s", n / insertSeconds);
    if (spent.serverSeconds() != null && db.kind() == Kind.POSTGRES) {
      figures.put("server_cpu_us_per_job", spent.serverSeconds() * 1e6 / n);
    }
    if (spent.clientSeconds() != null) {
      figures.put("client_cpu_us_per_job", spent.clientSeconds() * 1e6 / n);
    }
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("insert_seconds", insertSeconds);
    if (SqlProfile.ENABLED && db.jdbcUrl() != null) {
      raw.put("sql_profile", SqlProfile.top(db.jdbcUrl()));
    }
    return new Measurement(figures, raw);
  }
}
