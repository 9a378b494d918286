package dev.drover.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.jobrunr.jobs.mappers.JobMapper;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.JobActivator;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.storage.sql.sqlite.SqLiteStorageProvider;
import org.jobrunr.utils.mapper.JsonMapper;
import org.jobrunr.utils.mapper.jackson.JacksonJsonMapper;

/**
 * JobRunr open source (org.jobrunr:jobrunr) wired by hand instead of through {@code
 * JobRunr.configure()}, so that each run gets its own storage provider and server and nothing is
 * left in static state: a {@link JobScheduler} enqueues lambdas calling {@link JobRunrNoop#run}, a
 * {@link BackgroundJobServer} with one worker per bench worker runs them. Its storage providers
 * create their own tables.
 */
final class JobRunrSystem implements SystemUnderTest {
  static final String NAME = "jobrunr";

  /** JobRunr refuses poll intervals under five seconds. */
  static final Duration MIN_POLL_INTERVAL = Duration.ofSeconds(5);

  private final AtomicLong inserted = new AtomicLong();
  private final Map<String, String> configuration = new LinkedHashMap<>();
  private HikariDataSource pool;
  private StorageProvider storage;
  private JobScheduler scheduler;
  private BackgroundJobServer server;

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
    return pollInterval(settings); // a new job waits for the next poll: spread the enqueues over it
  }

  private static Duration pollInterval(Settings settings) {
    return settings.pollInterval().compareTo(MIN_POLL_INTERVAL) < 0
        ? MIN_POLL_INTERVAL
        : settings.pollInterval();
  }

  @Override
  public void open(BenchDb db, Settings settings, Probe probe) {
    JobRunrNoop.probe = probe;
    boolean sqlite = db.kind() == Kind.SQLITE;
    // One connection on SQLite: JobRunr's deferred transactions would otherwise fail each other
    // with SQLITE_BUSY.
    pool =
        PeerDataSources.pool(
            db, "jobrunr.db", sqlite ? 1 : settings.workers() + 4, "bench-jobrunr");
    JsonMapper json = new JacksonJsonMapper();
    storage = sqlite ? new SqLiteStorageProvider(pool) : new PostgresStorageProvider(pool);
    storage.setJobMapper(new JobMapper(json));
    scheduler = new JobScheduler(storage);
    BackgroundJobServerConfiguration config =
        BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
            .andWorkerCount(settings.workers())
            .andPollInterval(pollInterval(settings));
    JobActivator noActivator =
        new JobActivator() {
          @Override
          public <T> T activateJob(Class<T> type) {
            return null; // the job is a static method: nothing to instantiate
          }
        };
    server = new BackgroundJobServer(storage, json, noActivator, config);
    configuration.put("workerCount", Integer.toString(settings.workers()));
    configuration.put(
        "pollInterval", pollInterval(settings).toSeconds() + " s (JobRunr's minimum is 5 s)");
    configuration.put("storage", sqlite ? "SqLiteStorageProvider" : "PostgresStorageProvider");
    configuration.put("connection pool", Integer.toString(pool.getMaximumPoolSize()));
  }

  @Override
  public void insertBatch(long from, int count) {
    // The stream form saves jobs in batches; it is JobRunr's bulk enqueue.
    scheduler.enqueue(LongStream.range(from, from + count).boxed(), seq -> JobRunrNoop.run(seq));
    inserted.addAndGet(count);
  }

  @Override
  public void startWorkers() {
    server.start();
  }

  @Override
  public void enqueue(long seq) {
    scheduler.enqueue(() -> JobRunrNoop.run(seq));
    inserted.incrementAndGet();
  }

  @Override
  public long completed() {
    return storage.countJobs(StateName.SUCCEEDED);
  }

  @Override
  public void close() {
    if (server != null) {
      server.stop();
    }
    if (storage != null) {
      storage.close();
    }
    if (pool != null) {
      pool.close();
    }
    JobRunrNoop.probe = null;
  }
}
