package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.time.Duration;
import java.util.Map;

/**
 * A task scheduler as the workloads drive it: Drover and its peers (db-scheduler, JobRunr, Quartz,
 * graphile-worker), each as one class. Every task is a no-op numbered by a sequence number; the
 * system's handler calls {@link Probe#started} with it first thing, and does nothing else.
 *
 * <p>A workload makes a new instance for each database and calls, in order: {@link #open}, then
 * {@link #insertBatch} (burn-down) or nothing, {@link #startWorkers}, {@link #enqueue} and {@link
 * #completed} as it needs, and {@link #close}.
 */
interface SystemUnderTest extends AutoCloseable {
  /** What the no-op handler reports. Implementations must be thread-safe. */
  @FunctionalInterface
  interface Probe {
    /** Task {@code seq} has started executing; called first thing by the handler. */
    void started(long seq);
  }

  /** The name shown in the results, e.g. {@code drover}. */
  String name();

  /**
   * How the system is configured on {@code db} (worker threads, polling, batching), for the
   * results; only valid once {@link #open} ran.
   */
  default Map<String, String> configuration() {
    return Map.of();
  }

  default boolean supports(Kind db) {
    return true;
  }

  default boolean supports(String workload) {
    return true;
  }

  /**
   * The pickup workload spreads its pauses between samples over this long, so that enqueues land at
   * random phases of the system's idle poll loop instead of locking onto one. A system woken by
   * every enqueue can say zero.
   */
  Duration pickupPauseSpread(Settings settings);

  /**
   * Connects to a fresh, empty database and creates the schema and task type; no worker runs yet.
   */
  void open(BenchDb db, Settings settings, Probe probe) throws Exception;

  /** Inserts tasks {@code from .. from + count - 1} as fast as the system's API allows. */
  void insertBatch(long from, int count) throws Exception;

  /** Starts the workers (in this JVM where the system allows it), in daemon mode. */
  void startWorkers() throws Exception;

  /** Enqueues task {@code seq} the way an application would: one call of the public API. */
  void enqueue(long seq) throws Exception;

  /** How many tasks the database records as done; throws if the workers have died. */
  long completed() throws Exception;

  /** Stops the workers and disconnects. */
  @Override
  void close() throws Exception;
}
