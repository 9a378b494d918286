package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

/**
 * Quartz (org.quartz-scheduler:quartz) with its JDBC job store ({@code JobStoreTX}) on PostgreSQL;
 * Quartz has no SQLite support. Each task is a non-durable job with one fire-now simple trigger,
 * both deleted by Quartz once the job has run. Its tables come from the DDL inside the Quartz jar.
 */
final class QuartzSystem implements SystemUnderTest {
  static final String NAME = "quartz";
  private static final String DDL = "/org/quartz/impl/jdbcjobstore/tables_postgres.sql";
  private static final int INSERT_BATCH = 500;
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final AtomicLong inserted = new AtomicLong();
  private final Map<String, String> configuration = new LinkedHashMap<>();
  private String url;
  private String schedulerName;
  private Scheduler scheduler;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean supports(Kind db) {
    return db == Kind.POSTGRES;
  }

  @Override
  public Map<String, String> configuration() {
    return configuration;
  }

  @Override
  public Duration pickupPauseSpread(Settings settings) {
    // scheduleJob signals the scheduler thread of this JVM, so an idle scheduler wakes at once.
    return Duration.ZERO;
  }

  @Override
  public void open(BenchDb db, Settings settings, Probe probe) throws Exception {
    QuartzNoopJob.probe = probe;
    url = db.jdbcUrl();
    try (Connection c = DriverManager.getConnection(url)) {
      String ddl = PeerDataSources.withoutComments(PeerDataSources.resource(DDL));
      try (var s = c.createStatement()) {
        for (String sql : ddl.split(";")) {
          String trimmed = sql.strip();
          if (!trimmed.isEmpty() && !trimmed.equalsIgnoreCase("commit")) {
            s.execute(trimmed);
          }
        }
      }
    }
    schedulerName = "bench-quartz-" + INSTANCES.incrementAndGet();
    Properties p = new Properties();
    put(p, "org.quartz.scheduler.instanceName", schedulerName);
    put(p, "org.quartz.scheduler.skipUpdateCheck", "true");
    put(p, "org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
    put(p, "org.quartz.threadPool.threadCount", Integer.toString(settings.workers()));
    // Acquire as many triggers per query as there are threads; Quartz's configuration reference
    // requires acquiring them inside the trigger lock when the batch is larger than one.
    put(
        p,
        "org.quartz.scheduler.batchTriggerAcquisitionMaxCount",
        Integer.toString(settings.workers()));
    put(p, "org.quartz.jobStore.acquireTriggersWithinLock", "true");
    // Quartz refuses an idle wait under one second.
    put(
        p,
        "org.quartz.scheduler.idleWaitTime",
        Long.toString(Math.max(1000, settings.pollInterval().toMillis())));
    put(p, "org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
    put(
        p,
        "org.quartz.jobStore.driverDelegateClass",
        "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate");
    put(p, "org.quartz.jobStore.dataSource", "bench");
    // A burn-down's triggers are all due when the workers start; a queue, not a misfire.
    put(p, "org.quartz.jobStore.misfireThreshold", Long.toString(Duration.ofHours(1).toMillis()));
    put(p, "org.quartz.dataSource.bench.provider", "hikaricp");
    put(p, "org.quartz.dataSource.bench.driver", "org.postgresql.Driver");
    put(p, "org.quartz.dataSource.bench.URL", url);
    put(p, "org.quartz.dataSource.bench.maxConnections", Integer.toString(settings.workers() + 4));
    scheduler = new StdSchedulerFactory(p).getScheduler();
    p.stringPropertyNames().stream()
        .sorted()
        .filter(k -> !k.endsWith(".URL") && !k.endsWith("instanceName"))
        .forEach(k -> configuration.put(k.replace("org.quartz.", ""), p.getProperty(k)));
  }

  private static void put(Properties p, String key, String value) {
    p.setProperty(key, value);
  }

  @Override
  public void insertBatch(long from, int count) throws Exception {
    Map<JobDetail, Set<? extends Trigger>> batch = new LinkedHashMap<>();
    for (long seq = from; seq < from + count; seq++) {
      JobDetail job = job(seq);
      batch.put(job, Set.of(trigger(job)));
      if (batch.size() == INSERT_BATCH || seq == from + count - 1) {
        scheduler.scheduleJobs(batch, false);
        inserted.addAndGet(batch.size());
        batch.clear();
      }
    }
  }

  private static JobDetail job(long seq) {
    return JobBuilder.newJob(QuartzNoopJob.class)
        .withIdentity("noop-" + seq, "bench")
        .usingJobData(QuartzNoopJob.SEQ, seq)
        .build();
  }

  private static Trigger trigger(JobDetail job) {
    return TriggerBuilder.newTrigger()
        .forJob(job)
        .withIdentity(job.getKey().getName(), "bench")
        .startAt(new Date())
        .withSchedule(
            SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
        .build();
  }

  @Override
  public void startWorkers() throws Exception {
    scheduler.start();
  }

  @Override
  public void enqueue(long seq) throws Exception {
    JobDetail job = job(seq);
    scheduler.scheduleJob(job, trigger(job));
    inserted.incrementAndGet();
  }

  @Override
  public long completed() throws Exception {
    // A non-durable job is deleted with its last trigger, after it ran.
    try (Connection c = DriverManager.getConnection(url);
        var s = c.prepareStatement("SELECT count(*) FROM qrtz_job_details WHERE sched_name = ?")) {
      s.setString(1, schedulerName);
      try (var rs = s.executeQuery()) {
        rs.next();
        return inserted.get() - rs.getLong(1);
      }
    }
  }

  @Override
  public void close() throws Exception {
    if (scheduler != null) {
      scheduler.shutdown(true);
    }
    QuartzNoopJob.probe = null;
  }
}
