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
 * Database cost on PostgreSQL: a burn-down of N tasks, inserting included, with PostgreSQL's
 * statistics read before and after; reported per task as transactions, rows written (inserted,
 * updated, deleted in user tables) and WAL bytes.
 *
 * <p>An idle backend may hold its statistics back for seconds, but every backend reports them when
 * it exits. So a first instance of the system creates its schema and is closed before the first
 * reading, and the measured instance is closed before the second. The bench's own "done?" queries
 * are counted and taken off; everything else the system did meanwhile (starting up on an existing
 * schema, idle polls, heartbeats) is part of its cost.
 */
final class DbCost implements Workload {
  static final String NAME = "dbcost";

  /** Time for closed connections' backends to exit and report. */
  private static final Duration STATS_SETTLE = Duration.ofMillis(1000);

  private static final Duration CHECK_DONE_EVERY = Duration.ofMillis(100);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "database cost per task on PostgreSQL (insert + burn-down)";
  }

  @Override
  public boolean supports(Kind kind) {
    return kind == Kind.POSTGRES;
  }

  @Override
  public List<Column> columns() {
    return List.of(
        new Column("tasks", "tasks"),
        new Column("transactions_per_job", "transactions/job"),
        new Column("rows_written_per_job", "rows written/job"),
        new Column("inserted_per_job", "inserted"),
        new Column("updated_per_job", "updated"),
        new Column("deleted_per_job", "deleted"),
        new Column("wal_bytes_per_job", "WAL bytes/job"));
  }

  @Override
  public Plot plot() {
    return new Plot(
        "Database cost on PostgreSQL: transactions per task", "transactions_per_job", null, false);
  }

  @Override
  public List<Ratio> ratios(Settings settings) {
    return List.of(
        new Ratio("transactions_per_job", "transactions/job", false),
        new Ratio("rows_written_per_job", "rows written/job", false));
  }

  @Override
  public Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    int n = settings.load().costTasks();
    // The instances are the bench's own; the one passed in is left unopened.
    try (SystemUnderTest setup = Bench.SYSTEMS.get(system.name()).get()) {
      setup.open(db, settings, seq -> {});
    }
    Thread.sleep(STATS_SETTLE.toMillis());
    PgStats before = PgStats.read(db.jdbcUrl());
    CountDownLatch allStarted = new CountDownLatch(n);
    long checks = 0;
    try (SystemUnderTest measured = Bench.SYSTEMS.get(system.name()).get()) {
      measured.open(db, settings, seq -> allStarted.countDown());
      measured.insertBatch(0, n);
      measured.startWorkers();
      if (!allStarted.await(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
        throw new TimeoutException(
            allStarted.getCount() + " of " + n + " tasks not started after " + settings.timeout());
      }
      long deadline = System.nanoTime() + settings.timeout().toNanos();
      while (measured.completed() < n) {
        checks++;
        if (System.nanoTime() > deadline) {
          throw new TimeoutException("tasks not all done after " + settings.timeout());
        }
        Thread.sleep(CHECK_DONE_EVERY.toMillis());
      }
      checks++;
    }
    Thread.sleep(STATS_SETTLE.toMillis());
    PgStats after = PgStats.read(db.jdbcUrl());
    // Our own transactions: the first reading and every completed() query.
    long ours = 1 + checks;
    Map<String, Number> figures = new LinkedHashMap<>();
    figures.put("tasks", n);
    figures.put(
        "transactions_per_job", (after.transactions() - before.transactions() - ours) / (double) n);
    figures.put("rows_written_per_job", (after.rowsWritten() - before.rowsWritten()) / (double) n);
    figures.put("inserted_per_job", (after.rowsInserted() - before.rowsInserted()) / (double) n);
    figures.put("updated_per_job", (after.rowsUpdated() - before.rowsUpdated()) / (double) n);
    figures.put("deleted_per_job", (after.rowsDeleted() - before.rowsDeleted()) / (double) n);
    figures.put("wal_bytes_per_job", (after.walBytes() - before.walBytes()) / (double) n);
    Map<String, Object> raw = new LinkedHashMap<>();
    raw.put("before", before);
    raw.put("after", after);
    raw.put("bench_transactions_subtracted", ours);
    return new Measurement(figures, raw);
  }
}
