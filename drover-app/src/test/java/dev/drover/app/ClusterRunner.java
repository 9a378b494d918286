package dev.drover.app;

import dev.drover.Drover;
import dev.drover.Outcome;
import dev.drover.TaskContext;
import dev.drover.TaskHandler;
import dev.drover.engine.ProcessIdentity;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerOptions;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;

/**
 * A runner process for {@link ClusterIT}: the engine's {@link Runner} in a JVM of its own, as
 * {@code drover run --daemon} runs it, but executing tasks with a Java handler, so that 20,000
 * tasks do not cost 20,000 process starts on a small machine, and with a short leader lease.
 *
 * <p>The handler executes task type {@value #TYPE} by appending its start and end to a log shared
 * by every runner process ({@link ExecutionLog}'s format): one {@code write} on a file opened for
 * appending, so lines of concurrent processes never mix. SIGTERM stops the runner gracefully.
 *
 * <p>Arguments: JDBC URL, data dir (the gate and run output), log file, leader lease in
 * milliseconds, total workers.
 */
public final class ClusterRunner {
  static final String TYPE = "append";

  private ClusterRunner() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    Path dataDir = Path.of(args[1]).toAbsolutePath();
    Path log = Path.of(args[2]);
    Duration leaderLease = Duration.ofMillis(Long.parseLong(args[3]));
    int workers = Integer.parseInt(args[4]);
    long pid = ProcessHandle.current().pid();
    CountDownLatch done = new CountDownLatch(1);
    try (Drover drover = Drover.open(StoreLocation.postgres(url));
        FileChannel out =
            FileChannel.open(
                log,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
      TaskHandler append =
          (TaskContext c) -> {
            write(out, "start " + c.taskId() + " " + pid + " " + nanos() + " " + c.runId() + "\n");
            write(out, "end " + c.taskId() + " " + pid + " " + nanos() + " " + c.runId() + "\n");
            return Outcome.eventful();
          };
      RunnerOptions options =
          RunnerOptions.defaults(dataDir.resolve("runs"))
              .withTotalWorkers(workers)
              .withExitOnIdle(false)
              .withGate(
                  ProcessIdentity.current().host() + ":" + dataDir,
                  RunnerOptions.DEFAULT_TAKEOVER_GRACE,
                  false)
              .withLeaderLease(leaderLease);
      Runner runner =
          drover.runner(options.runsDir()).options(options).handler(TYPE, append).build();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    runner.stop(Duration.ofSeconds(5));
                    try {
                      done.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  }));
      runner.run();
    } finally {
      done.countDown();
    }
  }

  /** Wall-clock nanoseconds, comparable between processes (as {@code date +%s%N}). */
  private static long nanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  private static void write(FileChannel out, String line) throws IOException {
    ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
    while (bytes.hasRemaining()) {
      out.write(bytes);
    }
  }
}
