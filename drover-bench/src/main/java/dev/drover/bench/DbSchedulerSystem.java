package dev.drover.bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * db-scheduler (com.github.kagkarlsson:db-scheduler) embedded as its README shows: one {@link
 * OneTimeTask} whose instance id is the sequence number, executions deleted when done. PostgreSQL
 * polls with {@code lock-and-fetch} (one {@code SELECT ... FOR UPDATE SKIP LOCKED} claim per
 * batch); SQLite, which has no row locks, with the default {@code fetch}.
 *
 * <p>Two configurations of lock-and-fetch on PostgreSQL: {@link #BEST}, the lower/upper limits
 * (4.0, 20.0 × threads) of db-scheduler's best figures in its own docs/performance.md, and {@link
 * #README_DEFAULTS}, the README's (0.5, 1.0), as a second row.
 */
final class DbSchedulerSystem implements SystemUnderTest {
  static final String NAME = "db-scheduler";
  static final String README_DEFAULTS_NAME = "db-scheduler-0.5-1";

  /** Lock-and-fetch limits, as fractions of the thread count. */
  record Limits(double lower, double upper) {}

  static final Limits BEST = new Limits(4.0, 20.0);
  static final Limits README_DEFAULTS = new Limits(0.5, 1.0);

  private static final String TASK = "bench-noop";
  private static final int INSERT_BATCH = 1000;
  // fetch (SQLite): the README's defaults, refill at half the threads, three batches of
  // candidates read per fetch.
  private static final double FETCH_LOWER = 0.5;
  private static final double FETCH_PER_BATCH = 3.0;

  private final String name;
  private final Limits lockAndFetch;

  private final AtomicLong inserted = new AtomicLong();
  private final Map<String, String> configuration = new LinkedHashMap<>();
  private HikariDataSource pool;
  private Scheduler scheduler;
  private OneTimeTask<Void> task;

  DbSchedulerSystem(String name, Limits lockAndFetch) {
    this.name = name;
    this.lockAndFetch = lockAndFetch;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean supports(Kind db) {
    // SQLite has one configuration (fetch): the README-defaults row would repeat it.
    return db == Kind.POSTGRES || lockAndFetch == BEST;
  }

  @Override
  public Map<String, String> configuration() {
    return configuration;
  }

  @Override
  public Duration pickupPauseSpread(Settings settings) {
    // enableImmediateExecution wakes the scheduler when this JVM schedules a due execution.
    return Duration.ZERO;
  }

  @Override
  public void open(BenchDb db, Settings settings, Probe probe) throws Exception {
    boolean sqlite = db.kind() == Kind.SQLITE;
    pool =
        PeerDataSources.pool(
            db,
            "db-scheduler.db",
            sqlite ? 1 + settings.workers() : settings.workers() + 4,
            "bench-db-scheduler");
    PeerDataSources.runScript(
        pool,
        PeerDataSources.withoutComments(
            PeerDataSources.resource(
                sqlite ? "db-scheduler-sqlite.sql" : "db-scheduler-postgres.sql")));
    task =
        Tasks.oneTime(TASK)
            .execute((instance, context) -> probe.started(Long.parseLong(instance.getId())));
    SchedulerBuilder builder =
        Scheduler.create(pool, task)
            .threads(settings.workers())
            .pollingInterval(settings.pollInterval())
            .enableImmediateExecution()
            .shutdownMaxWait(Duration.ofSeconds(5));
    if (sqlite) {
      builder.pollUsingFetch(FETCH_LOWER, FETCH_PER_BATCH);
      configuration.put(
          "polling", "fetch, lower " + FETCH_LOWER + " / batch " + FETCH_PER_BATCH + " × threads");
    } else {
      builder.pollUsingLockAndFetch(lockAndFetch.lower(), lockAndFetch.upper());
      configuration.put(
          "polling",
          "lock-and-fetch, lower "
              + lockAndFetch.lower()
              + " / upper "
              + lockAndFetch.upper()
              + " × threads"
              + (lockAndFetch == BEST
                  ? " (db-scheduler docs/performance.md, its best figures)"
                  : " (db-scheduler README defaults)"));
    }
    configuration.put("threads", Integer.toString(settings.workers()));
    configuration.put("pollingInterval", settings.pollInterval().toMillis() + " ms");
    configuration.put("immediateExecution", "on");
    configuration.put("connection pool", Integer.toString(pool.getMaximumPoolSize()));
    scheduler = builder.build();
  }

  @Override
  public void insertBatch(long from, int count) {
    Instant now = Instant.now();
    List<TaskInstance<?>> batch = new ArrayList<>(INSERT_BATCH);
    for (long seq = from; seq < from + count; seq++) {
      batch.add(task.instance(Long.toString(seq)));
      if (batch.size() == INSERT_BATCH || seq == from + count - 1) {
        scheduler.scheduleBatch(batch, now);
        inserted.addAndGet(batch.size());
        batch.clear();
      }
    }
  }

  @Override
  public void startWorkers() {
    scheduler.start();
  }

  @Override
  public void enqueue(long seq) {
    scheduler.schedule(task.instance(Long.toString(seq)), Instant.now());
    inserted.incrementAndGet();
  }

  @Override
  public long completed() throws Exception {
    // One-time executions are deleted when they succeed.
    return inserted.get() - PeerDataSources.count(pool, "SELECT count(*) FROM scheduled_tasks");
  }

  @Override
  public void close() {
    if (scheduler != null) {
      scheduler.stop();
    }
    if (pool != null) {
      pool.close();
    }
  }
}
