package dev.drover.bench;

import dev.drover.Drover;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cost of creating one task inside the application's own transaction ({@link
 * Drover#taskCreate(Connection, List)}, then the application's commit) beside creating it on
 * Drover's own pool ({@link Drover#taskCreate(List)}, which commits), one call at a time, on a
 * fresh database: PostgreSQL (embedded, as the bench starts it) or SQLite. The two ways alternate
 * in blocks after a warm-up; prints each one's p50 and p99 in microseconds. A measurement, not a
 * test (docs/benchmarks.md, "A create in the application's transaction").
 *
 * <pre>
 * java -cp drover-bench/target/drover-bench.jar dev.drover.bench.EnqueueInTransaction \
 *     postgres|sqlite [CALLS] [WARMUP]
 * </pre>
 */
public final class EnqueueInTransaction {
  private static final int BLOCK = 500;
  private static final String TYPE = "t";

  private EnqueueInTransaction() {}

  public static void main(String[] args) throws Exception {
    ToolArgs tool =
        new ToolArgs("EnqueueInTransaction", "postgres|sqlite [CALLS] [WARMUP]", args, 2);
    Kind kind = tool.kind();
    int calls = tool.count(1, "CALLS", 1, 10_000);
    int warmup = tool.count(2, "WARMUP", 0, 5_000);
    Timings t = measure(kind, calls, warmup);
    System.out.printf(
        Locale.ROOT,
        "%s, %d calls each: on the application's connection p50 %s us, p99 %s us;"
            + " on Drover's pool p50 %s us, p99 %s us%n",
        kind.label(),
        calls,
        micros(t.lent(), 50),
        micros(t.lent(), 99),
        micros(t.own(), 50),
        micros(t.own(), 99));
  }

  /**
   * Each call's time in nanoseconds, both ways, and how many tasks the store held at the end.
   *
   * @param lent a create on the application's connection and its commit
   * @param own a create on Drover's pool
   */
  record Timings(long[] lent, long[] own, long created) {}

  static Timings measure(Kind kind, int calls, int warmup) throws Exception {
    try (Databases databases = Databases.temporary("drover-enqueue-tx", Map.of())) {
      BenchDb db = databases.fresh(kind, "enqueue-tx");
      try (Drover drover = Drover.open(db.droverLocation());
          Connection app = appConnection(db)) {
        drover.taskTypeCreate(TaskType.builder(TYPE).description("drover-bench task").build());
        app.setAutoCommit(false);
        long[] lent = new long[calls];
        long[] own = new long[calls];
        long seq = 0;
        for (int i = 0; i < warmup; i++) {
          createLent(drover, app, seq++);
          drover.taskCreate(List.of(task(seq++)));
        }
        for (int from = 0; from < calls; from += BLOCK) {
          int to = Math.min(calls, from + BLOCK);
          for (int i = from; i < to; i++) {
            long start = System.nanoTime();
            createLent(drover, app, seq++);
            lent[i] = System.nanoTime() - start;
          }
          for (int i = from; i < to; i++) {
            long start = System.nanoTime();
            drover.taskCreate(List.of(task(seq++)));
            own[i] = System.nanoTime() - start;
          }
        }
        return new Timings(lent, own, drover.dueCounts().getOrDefault(TYPE, 0L));
      }
    }
  }

  private static void createLent(Drover drover, Connection app, long seq) throws Exception {
    drover.taskCreate(app, List.of(task(seq)));
    app.commit();
  }

  /**
   * The application's connection to the same database. On SQLite it commits with the durability
   * Drover's own connections use, as the peers' pools do, so both ways pay the same commit.
   */
  private static Connection appConnection(BenchDb db) throws Exception {
    return PeerDataSources.direct(db).getConnection();
  }

  private static NewTask task(long seq) {
    return NewTask.oneshot(TYPE, TaskArguments.of(List.of(seq), null));
  }

  /** The nearest-rank percentile {@code p} of {@code nanos}, in whole microseconds. */
  private static String micros(long[] nanos, double p) {
    double[] sorted = Arrays.stream(nanos).sorted().asDoubleStream().toArray();
    return String.format(Locale.ROOT, "%.0f", Pickup.percentile(sorted, p) / 1e3);
  }
}
