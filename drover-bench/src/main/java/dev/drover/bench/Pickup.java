package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Idle pickup latency: one task at a time into an idle system, timed from just before the enqueue
 * call to the first line of the handler (both {@link System#nanoTime()} in this JVM); how long the
 * enqueue call itself took (its commit) is kept too. Before each sample the bench pauses so that
 * the system is idle; after it, it waits until the run is recorded done.
 *
 * <p>The samples are taken warm: first {@link #WARMUP} pickups back to back (at most {@link
 * #WARMUP_CAP}), not counted, so that the JVM has compiled each system's enqueue and pickup code,
 * as in a process that has been running for a while. Five warm-up pickups left that code to the
 * interpreter and the first compiler tier: Drover's idle pickup on SQLite took 6.6 ms p50 after
 * five and 3.0 ms after 5,000 on this bench's machine. Every system gets the same warm-up.
 */
final class Pickup implements Workload {
  static final String NAME = "pickup";

  /** Warm-up pickups of a full run (smoke takes fewer). */
  static final int WARMUP = 1000;

  /**
   * The warm-up's longest time: a system that polls every few seconds makes a handful of pickups in
   * it, and its latency is its poll interval's, compiled or not.
   */
  static final Duration WARMUP_CAP = Duration.ofSeconds(20);

  /** Long enough for the runner to finish its tick after a completion and go back to sleep. */
  private static final Duration PAUSE = Duration.ofMillis(50);

  private static final Duration CHECK_DONE_EVERY = Duration.ofMillis(1);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "idle pickup latency, enqueue to handler start (ms)";
  }

  @Override
  public List<Column> columns() {
    return List.of(
        new Column("samples", "samples"),
        new Column("p50_ms", "p50 ms"),
        new Column("p99_ms", "p99 ms"),
        new Column("max_ms", "max ms"),
        new Column("enqueue_p50_ms", "enqueue call p50 ms"));
  }

  @Override
  public Plot plot() {
    return new Plot(
        "Idle pickup latency, ms (bar p50, whisker p99; log scale)", "p50_ms", "p99_ms", true);
  }

  @Override
  public List<Ratio> ratios(Settings settings) {
    return List.of(new Ratio("p50_ms", "p50", false), new Ratio("p99_ms", "p99", false));
  }

  @Override
  public Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    BlockingQueue<long[]> started = new LinkedBlockingQueue<>();
    system.open(db, settings, seq -> started.add(new long[] {seq, System.nanoTime()}));
    system.startWorkers();
    // A fixed seed: the pauses are random so that enqueues are spread over the poll loop's phase,
    // and the same from run to run.
    Random random = new Random(3);
    long spreadMs = system.pickupPauseSpread(settings).toMillis();
    int warmups = warmUp(system, started, 0, settings);
    SqlProfile.reset(db.jdbcUrl());
    double[] latencies = new double[settings.samples()];
    double[] enqueues = new double[settings.samples()];
    for (int i = 0; i < settings.samples(); i++) {
      Thread.sleep(PAUSE.toMillis() + (spreadMs > 0 ? random.nextLong(spreadMs) : 0));
      long[] times = pickup(system, started, warmups + i, warmups + i + 1, settings);
      latencies[i] = times[1] / 1e6;
      enqueues[i] = times[0] / 1e6;
    }
    double[] sorted = latencies.clone();
    Arrays.sort(sorted);
    Map<String, Number> figures = new LinkedHashMap<>();
    figures.put("samples", sorted.length);
    figures.put("p50_ms", percentile(sorted, 50));
    figures.put("p99_ms", percentile(sorted, 99));
    figures.put("max_ms", sorted[sorted.length - 1]);
    figures.put("mean_ms", Arrays.stream(sorted).average().orElse(Double.NaN));
    double[] sortedEnqueues = enqueues.clone();
    Arrays.sort(sortedEnqueues);
    figures.put("enqueue_p50_ms", percentile(sortedEnqueues, 50));
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("warmup_pickups", warmups);
    raw.put("pause_ms", PAUSE.toMillis());
    raw.put("pause_spread_ms", spreadMs);
    raw.put("latencies_ms", latencies);
    raw.put("enqueue_ms", enqueues);
    if (SqlProfile.ENABLED && db.jdbcUrl() != null) {
      raw.put("sql_profile", SqlProfile.top(db.jdbcUrl()));
    }
    return new Measurement(figures, raw);
  }

  /**
   * Takes up to {@link Settings#warmup} pickups back to back, at most {@link #WARMUP_CAP}, with
   * sequence numbers from {@code firstSeq}; returns how many. Back to back: the warm-up is there to
   * compile the code, not to measure an idle system. {@code started} receives the warm-up tasks'
   * starts, and no task is outstanding when it is called.
   */
  static int warmUp(
      SystemUnderTest system, BlockingQueue<long[]> started, long firstSeq, Settings settings)
      throws Exception {
    long warmupEnds = System.nanoTime() + WARMUP_CAP.toNanos();
    int warmups = 0;
    while (warmups < settings.warmup() && System.nanoTime() < warmupEnds) {
      pickup(system, started, firstSeq + warmups, warmups + 1, settings);
      warmups++;
    }
    return warmups;
  }

  /**
   * Enqueues task {@code seq} and waits until it starts and the system has recorded {@code
   * completed} tasks done. Returns the enqueue call's duration and the time from the enqueue to the
   * handler's start, in nanoseconds.
   */
  private static long[] pickup(
      SystemUnderTest system,
      BlockingQueue<long[]> started,
      long seq,
      long completed,
      Settings settings)
      throws Exception {
    long before = System.nanoTime();
    system.enqueue(seq);
    long enqueued = System.nanoTime();
    long[] start = started.poll(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
    if (start == null) {
      throw new TimeoutException("task " + seq + " did not start within " + settings.timeout());
    }
    if (start[0] != seq) {
      throw new IllegalStateException(
          "expected task " + seq + " to start, but task " + start[0] + " did");
    }
    // Checking for "done" only begins after the start, so its queries cannot slow the pickup.
    Workload.awaitCompleted(system, completed, CHECK_DONE_EVERY, settings.timeout());
    return new long[] {enqueued - before, start[1] - before};
  }

  /**
   * The nearest-rank percentile: the smallest sample that at least {@code p}% of samples do not
   * exceed.
   */
  static double percentile(double[] sorted, double p) {
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
