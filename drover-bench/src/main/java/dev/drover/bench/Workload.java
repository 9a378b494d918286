package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/** One way of loading a system, and the figures it reports. */
interface Workload {
  /** A figure of the results table: its key in {@link Measurement#figures()} and its heading. */
  record Column(String key, String heading) {}

  /**
   * How the plot shows this workload: a bar to one figure, optionally a whisker on to another.
   *
   * @param whiskerKey a figure drawn as a line past the bar (e.g. p99 beyond p50), or null
   * @param logScale for figures spanning decades (a woken pickup against a polled one)
   */
  record Plot(String title, String barKey, String whiskerKey, boolean logScale) {}

  /**
   * A figure on which Drover is compared with each peer of the same run.
   *
   * @param higherIsBetter true for rates, false for latencies and costs
   */
  record Ratio(String key, String heading, boolean higherIsBetter) {}

  /**
   * What one run measured.
   *
   * @param figures the summary figures, by column key
   * @param raw the raw figures they came from, for results.json
   */
  record Measurement(Map<String, Number> figures, Map<String, Object> raw) {}

  String name();

  /** One line on what is measured, for the tables. */
  String title();

  List<Column> columns();

  /**
   * The columns for this run's settings (a workload whose columns depend on them overrides this).
   */
  default List<Column> columns(Settings settings) {
    return columns();
  }

  /** A table cell: the figure, formatted. */
  default String cell(Result result, Column column) {
    return Report.format(result.figures().get(column.key()));
  }

  Plot plot();

  /** Whether this workload can drive {@code system} (the frontier workload is Drover's alone). */
  default boolean supports(SystemUnderTest system) {
    return true;
  }

  /** The plot panels for this run's settings. */
  default List<Plot> plots(Settings settings) {
    return List.of(plot());
  }

  /** The figures on which Drover is compared with its peers; none by default. */
  default List<Ratio> ratios(Settings settings) {
    return List.of();
  }

  /**
   * Whether this workload runs on {@code kind} (the database-cost workload reads PostgreSQL's
   * statistics).
   */
  default boolean supports(Databases.Kind kind) {
    return true;
  }

  /** Runs on {@code system}, which is new and not yet opened, on the empty database {@code db}. */
  Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception;

  /** Waits until the system records at least {@code n} tasks done, checking every {@code every}. */
  static void awaitCompleted(SystemUnderTest system, long n, Duration every, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    long done;
    while ((done = system.completed()) < n) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(done + " of " + n + " tasks done after " + timeout);
      }
      Thread.sleep(every.toMillis());
    }
  }
}
