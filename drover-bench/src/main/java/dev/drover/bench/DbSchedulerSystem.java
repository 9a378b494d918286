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
 */
final class DbSchedulerSystem implements SystemUnderTest {
  static final String NAME = "db-scheduler";
  private static final String TASK = "bench-noop";
  private static final int INSERT_BATCH = 1000;
  // The README's defaults for both strategies: refill at half the threads; lock-and-fetch claims
  // up to one batch of `threads`, fetch reads three times as many candidates.
  private static final double LOWER_LIMIT = 0.5;
  private static final double LOCK_AND_FETCH_UPPER = 1.0;
  private static final double FETCH_PER_BATCH = 3.0;

  private final AtomicLong inserted = new AtomicLong();
  private final Map<String, String> configuration = new LinkedHashMap<>();
  private HikariDataSource pool;
  private Scheduler scheduler;
  private OneTimeTask<Void> task;

  @Override
  public String name() {
    return NAME;
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
      builder.pollUsingFetch(LOWER_LIMIT, FETCH_PER_BATCH);
      configuration.put(
          "polling", "fetch, lower " + LOWER_LIMIT + " / batch " + FETCH_PER_BATCH + " × threads");
    } else {
      builder.pollUsingLockAndFetch(LOWER_LIMIT, LOCK_AND_FETCH_UPPER);
      configuration.put(
          "polling",
          "lock-and-fetch, lower "
              + LOWER_LIMIT
              + " / upper "
              + LOCK_AND_FETCH_UPPER
              + " × threads");
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
