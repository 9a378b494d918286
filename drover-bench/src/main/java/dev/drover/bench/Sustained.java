package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Sustained load: tasks enqueued one API call each at a fixed rate for a fixed time, by a few
 * threads keeping to a shared schedule; the latency of each is from just before its enqueue call to
 * its handler's start. The backlog is what was enqueued but had not started when enqueueing
 * stopped; the bench then waits a while for it to drain, and a task that never started counts with
 * its wait so far (so p99 is a lower bound when "unstarted" is not zero).
 *
 * <p>The load begins warm, after the pickup workload's warm-up ({@link Pickup#warmUp}) and as long
 * of the same load, unmeasured: a ten-second load on a cold JVM measured mostly the compiler's
 * first seconds (Drover on PostgreSQL: 17.6 ms p50 over a cold 10 s, against about 5 ms once warm).
 * The JIT's compiler threads' share of a core during the measured load is reported ({@code
 * compiler_cores}), as the sign of a load that was not warm yet.
 */
final class Sustained implements Workload {
  static final String NAME = "sustained";
  private static final int ENQUEUERS = 4;

  /** Longest wait for the backlog to start once enqueueing stops. */
  private static final Duration DRAIN = Duration.ofSeconds(30);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "sustained enqueue at a fixed rate, enqueue to handler start (ms)";
  }

  @Override
  public List<Column> columns() {
    return List.of(
        new Column("rate_per_s", "target/s"),
        new Column("enqueued_per_s", "enqueued/s"),
        new Column("p50_ms", "p50 ms"),
        new Column("p99_ms", "p99 ms"),
        new Column("backlog", "backlog at end"),
        new Column("unstarted", "unstarted"));
  }

  @Override
  public Plot plot() {
    return new Plot(
        "Sustained load: enqueue-to-start latency, ms (bar p50, whisker p99; log scale)",
        "p50_ms",
        "p99_ms",
        true);
  }

  @Override
  public List<Ratio> ratios(Settings settings) {
    return List.of(new Ratio("p50_ms", "p50", false), new Ratio("p99_ms", "p99", false));
  }

  @Override
  public Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    Settings.Load load = settings.load();
    int n = (int) Math.max(1, load.rate() * load.sustainFor().toMillis() / 1000);
    AtomicLongArray before = new AtomicLongArray(n);
    AtomicLongArray started = new AtomicLongArray(n);
    AtomicLong startedCount = new AtomicLong();
    AtomicLong warmupLoadStarted = new AtomicLong();
    BlockingQueue<long[]> warmupStarted = new LinkedBlockingQueue<>();
    // Sequence numbers: the measured tasks first, then the pickups of the warm-up, then its load.
    long loadFrom = (long) n + settings.warmup();
    system.open(
        db,
        settings,
        seq -> {
          if (seq >= loadFrom) {
            warmupLoadStarted.incrementAndGet();
          } else if (seq >= n) {
            warmupStarted.add(new long[] {seq, System.nanoTime()});
          } else if (seq >= 0 && started.compareAndSet((int) seq, 0, System.nanoTime())) {
            startedCount.incrementAndGet();
          }
        });
    system.startWorkers();
    // The same warm-up as the pickup workload's, numbered after the measured tasks...
    int warmups = Pickup.warmUp(system, warmupStarted, n, settings);
    // ...then as long of the same load, not measured. The pickups run one task at a time;
    // the load runs four enqueuers and the system's paths for tasks that overlap, which the JIT
    // then compiles. Without it the JIT's compiler threads used a tenth of a core through the
    // measured window on two cores, and the threads a handover wakes waited behind them for a core
    // (`perf sched`, docs/benchmarks.md, 2026-11-29): the p99 timed the compiler.
    enqueueAtRate(system, loadFrom, n, load.rate(), new AtomicLongArray(n));
    awaitStarts(warmupLoadStarted, n, System.nanoTime() + DRAIN.toNanos());

    long compilingBefore = CpuMeter.compilerNanos();
    long t0 = System.nanoTime();
    long t0EpochMicros = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis());
    enqueueAtRate(system, 0, n, load.rate(), before);
    long enqueueEnd = System.nanoTime();
    long backlog = n - startedCount.get();
    awaitStarts(startedCount, n, enqueueEnd + DRAIN.toNanos());
    long end = System.nanoTime();
    long compiling = CpuMeter.compilerNanos() - compilingBefore;

    double[] latencies = new double[n];
    int unstarted = 0;
    for (int i = 0; i < n; i++) {
      long s = started.get(i);
      if (s == 0) {
        unstarted++;
      }
      latencies[i] = ((s == 0 ? end : s) - before.get(i)) / 1e6;
    }
    double[] sorted = latencies.clone();
    Arrays.sort(sorted);
    Map<String, Number> figures = new LinkedHashMap<>();
    figures.put("rate_per_s", load.rate());
    figures.put("enqueued_per_s", n / ((enqueueEnd - t0) / 1e9));
    figures.put("tasks", n);
    figures.put("p50_ms", Pickup.percentile(sorted, 50));
    figures.put("p99_ms", Pickup.percentile(sorted, 99));
    figures.put("max_ms", sorted[n - 1]);
    figures.put("backlog", backlog);
    figures.put("unstarted", unstarted);
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("warmup_pickups", warmups);
    raw.put("warmup_load_tasks", n);
    raw.put("sustain_for_s", load.sustainFor().toMillis() / 1000.0);
    raw.put("enqueuer_threads", ENQUEUERS);
    raw.put("drain_limit_s", DRAIN.toSeconds());
    if (compilingBefore >= 0) {
      // The JIT's compiler threads, in cores, while the measured tasks ran.
      raw.put("compiler_cores", compiling / (double) (end - t0));
    }
    // When the measured load began, to line its tasks up with a server's log: task i was due
    // i / rate seconds later.
    raw.put("t0_epoch_us", t0EpochMicros);
    raw.put("latencies_ms", latencies);
    return new Measurement(figures, raw);
  }

  /**
   * Enqueues tasks {@code firstSeq} to {@code firstSeq + count - 1}, one API call each, at {@code
   * rate} a second, by {@link #ENQUEUERS} threads keeping to one schedule; {@code before} receives
   * each call's start, by its index in the run. Returns when every call has returned.
   */
  private static void enqueueAtRate(
      SystemUnderTest system, long firstSeq, int count, int rate, AtomicLongArray before)
      throws Exception {
    long t0 = System.nanoTime();
    double nanosPerTask = 1e9 / rate;
    AtomicLong failures = new AtomicLong();
    List<Thread> enqueuers = new ArrayList<>();
    Exception[] firstFailure = new Exception[1];
    for (int k = 0; k < ENQUEUERS; k++) {
      int first = k;
      Thread t =
          new Thread(
              () -> {
                for (int i = first; i < count; i += ENQUEUERS) {
                  long due = t0 + (long) (i * nanosPerTask);
                  long wait = due - System.nanoTime();
                  if (wait > 0) {
                    sleepNanos(wait);
                  }
                  before.set(i, System.nanoTime());
                  try {
                    system.enqueue(firstSeq + i);
                  } catch (Exception e) {
                    if (failures.getAndIncrement() == 0) {
                      firstFailure[0] = e;
                    }
                    return;
                  }
                }
              },
              "bench-enqueuer-" + k);
      t.setDaemon(true);
      t.start();
      enqueuers.add(t);
    }
    for (Thread t : enqueuers) {
      t.join();
    }
    if (firstFailure[0] != null) {
      throw firstFailure[0];
    }
  }

  /** Waits until {@code started} reaches {@code count}, or until {@code deadline} (nanoTime). */
  private static void awaitStarts(AtomicLong started, long count, long deadline)
      throws InterruptedException {
    while (started.get() < count && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  private static void sleepNanos(long nanos) {
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
