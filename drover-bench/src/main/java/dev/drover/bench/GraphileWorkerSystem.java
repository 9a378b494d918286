package dev.drover.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * graphile-worker (npm, pinned) run by the machine's Node.js against the bench's PostgreSQL: a
 * small runner script ({@code graphile-runner.js}) is started as a child process, migrates the
 * schema, runs the workers on command and reports every task start on its stdout. Tasks are
 * enqueued from Java through graphile-worker's SQL API ({@code add_job}, {@code add_jobs}).
 *
 * <p>A start is timed when its line is read here, so a graphile-worker pickup includes one pipe hop
 * that the JVM peers do not pay (well under a millisecond).
 */
final class GraphileWorkerSystem implements SystemUnderTest {
  static final String NAME = "graphile-worker";
  static final String VERSION = "0.17.3";
  private static final NodePackage PACKAGE = new NodePackage("graphile-worker", VERSION);
  private static final Duration STARTUP = Duration.ofMinutes(2);
  private static final int INSERT_BATCH = 5000;
  // graphile-worker's own performance test fetches 500 jobs per local queue batch and completes
  // jobs in batches with no extra delay; see docs/benchmarks.md.
  private static final int LOCAL_QUEUE_SIZE = 500;
  private static final int COMPLETE_BATCH_DELAY_MS = 0;

  private final AtomicLong inserted = new AtomicLong();
  private final Map<String, String> configuration = new LinkedHashMap<>();
  private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
  private volatile String failure;
  private HikariDataSource pool;
  private Process node;
  private Writer commands;
  private Thread reader;

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
    return Duration.ZERO; // add_job sends a NOTIFY that wakes the worker
  }

  @Override
  public void open(BenchDb db, Settings settings, Probe probe) throws Exception {
    Path dir = PACKAGE.install();
    Path script = dir.resolve("graphile-runner.js");
    Files.writeString(script, PeerDataSources.resource("graphile-runner.js"));

    Map<String, Object> worker = new LinkedHashMap<>();
    worker.put("connectionString", connectionString(db.jdbcUrl()));
    worker.put("concurrentJobs", settings.workers());
    // The docs: "10 or concurrentJobs + 2, whichever is larger".
    worker.put("maxPoolSize", Math.max(10, settings.workers() + 2));
    worker.put("pollInterval", settings.pollInterval().toMillis());
    worker.put("preparedStatements", true);
    worker.put("useNodeTime", true);
    worker.put("localQueue", Map.of("size", LOCAL_QUEUE_SIZE));
    worker.put("completeJobBatchDelay", COMPLETE_BATCH_DELAY_MS);
    worker.put("failJobBatchDelay", COMPLETE_BATCH_DELAY_MS);
    worker.put("getQueueNameBatchDelay", 50);
    worker.forEach(
        (k, v) -> {
          if (!k.equals("connectionString")) {
            configuration.put(k, String.valueOf(v).replace("=", ": "));
          }
        });
    configuration.put("version", VERSION + " on Node.js " + nodeVersion());

    ProcessBuilder pb =
        new ProcessBuilder("node", script.toString())
            .directory(dir.toFile())
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment()
        .put("BENCH_GRAPHILE", new ObjectMapper().writeValueAsString(Map.of("worker", worker)));
    node = pb.start();
    commands = new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8);
    reader = new Thread(() -> read(probe), "bench-graphile-reader");
    reader.setDaemon(true);
    reader.start();
    await("ready");
    pool = PeerDataSources.pool(db, null, 4, "bench-graphile");
  }

  private static String nodeVersion() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
    String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    p.waitFor();
    return v;
  }

  /**
   * {@code jdbc:postgresql://host:port/db?user=u} as the {@code postgres://u@host:port/db} that pg
   * wants.
   */
  static String connectionString(String jdbcUrl) {
    URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
    String user = "postgres";
    if (uri.getQuery() != null) {
      for (String pair : uri.getQuery().split("&")) {
        if (pair.startsWith("user=")) {
          user = pair.substring("user=".length());
        }
      }
    }
    return "postgres://" + user + "@" + uri.getHost() + ":" + uri.getPort() + uri.getPath();
  }

  private void read(Probe probe) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("s ")) {
          probe.started(Long.parseLong(line.substring(2)));
        } else if (line.startsWith("error ")) {
          failure = line.substring("error ".length());
          events.add(line);
        } else {
          events.add(line);
        }
      }
    } catch (IOException | RuntimeException e) {
      failure = "reading graphile-worker's output: " + e;
    }
    if (failure == null) {
      failure = "the graphile-worker process ended";
    }
    events.add("ended");
  }

  private void await(String event) throws Exception {
    String got = events.poll(STARTUP.toMillis(), TimeUnit.MILLISECONDS);
    if (!event.equals(got)) {
      throw new IllegalStateException(
          "graphile-worker: expected '"
              + event
              + "', got "
              + (got == null ? "nothing in " + STARTUP : "'" + got + "'")
              + (failure == null ? "" : ": " + failure));
    }
  }

  private void send(String command) throws IOException {
    commands.write(command + "\n");
    commands.flush();
  }

  @Override
  public void insertBatch(long from, int count) throws Exception {
    String sql =
        "SELECT graphile_worker.add_jobs(ARRAY(SELECT ROW('noop', json_build_object('seq', g), "
            + "NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec FROM "
            + "generate_series(?::bigint, ?::bigint) g))";
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      for (long lo = from; lo < from + count; lo += INSERT_BATCH) {
        long hi = Math.min(from + count, lo + INSERT_BATCH) - 1;
        s.setLong(1, lo);
        s.setLong(2, hi);
        s.execute();
        inserted.addAndGet(hi - lo + 1);
      }
    }
  }

  @Override
  public void startWorkers() throws Exception {
    send("start");
    await("running");
  }

  @Override
  public void enqueue(long seq) throws Exception {
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT graphile_worker.add_job('noop', json_build_object('seq', ?::bigint))")) {
      s.setLong(1, seq);
      s.execute();
    }
    inserted.incrementAndGet();
  }

  @Override
  public long completed() throws Exception {
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
    // graphile-worker deletes a job when it succeeds.
    return inserted.get()
        - PeerDataSources.count(pool, "SELECT count(*) FROM graphile_worker._private_jobs");
  }

  @Override
  public void close() throws Exception {
    if (node != null) {
      try {
        send("stop");
      } catch (IOException e) {
        // already gone
      }
      if (!node.waitFor(30, TimeUnit.SECONDS)) {
        node.destroyForcibly().waitFor();
      }
      reader.join(5000);
    }
    if (pool != null) {
      pool.close();
    }
  }
}
