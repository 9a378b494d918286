package dev.drover.app;

import dev.drover.engine.Runner;
import dev.drover.engine.RunnerStats;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs a runner in this thread while a watcher checks {@code done} every {@code everyMs}; once it
 * holds, the runner is asked to stop (once), with {@code grace} for what is still executing. The
 * demos use it to end as soon as their own work has, not when the runner finds itself idle.
 */
final class RunUntil {
  private RunUntil() {}

  static RunnerStats done(
      Runner runner, BooleanSupplier done, long everyMs, Duration grace, String watcherName)
      throws InterruptedException {
    ScheduledExecutorService watcher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, watcherName);
              t.setDaemon(true);
              return t;
            });
    boolean[] stopped = {false}; // the watcher's own thread alone reads and writes it
    watcher.scheduleWithFixedDelay(
        () -> {
          if (!stopped[0] && done.getAsBoolean()) {
            stopped[0] = true;
            runner.stop(grace);
          }
        },
        everyMs,
        everyMs,
        TimeUnit.MILLISECONDS);
    try {
      return runner.run();
    } finally {
      watcher.shutdownNow();
    }
  }
}
