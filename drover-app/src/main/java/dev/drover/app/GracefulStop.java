package dev.drover.app;

import dev.drover.engine.Runner;
import dev.drover.model.DurationText;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns SIGTERM and SIGINT into a graceful stop of a runner. The JVM runs shutdown hooks on either
 * signal; this one asks the runner to stop (no new claims, running work gets the grace period, then
 * is released without charging an attempt) and waits until the command has finished with the runner
 * (summary printed, store closed). Then it ends the JVM itself with the command's exit code: left
 * alone, a JVM stopped by a signal exits 128 + the signal number.
 *
 * <p>Closed without a signal, it removes the hook, so a normal exit does not go through it.
 */
final class GracefulStop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(GracefulStop.class);

  /** How long after the grace the command gets to print its summary and close the store. */
  static final Duration LAST_WORDS = Duration.ofSeconds(20);

  private final CountDownLatch done = new CountDownLatch(1);
  private final Thread hook;
  private volatile boolean signalled;
  private volatile int exitCode = ErrorHandler.FAILED;

  private GracefulStop(Runner runner, Duration grace) {
    hook =
        new Thread(
            () -> {
              signalled = true;
              log.info(
                  "stop requested: claiming nothing more; running work has {} to finish",
                  DurationText.format(grace));
              runner.stop(grace);
              try {
                // The runner leaves within the grace and a few seconds whatever the database does
                // (Runner.stop); this bound also covers what the command does after it.
                if (!done.await(grace.plus(LAST_WORDS).toMillis(), TimeUnit.MILLISECONDS)) {
                  log.warn("still not done {} after the grace: exiting", LAST_WORDS);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              System.out.flush();
              System.err.flush();
              Runtime.getRuntime().halt(exitCode);
            },
            "drover-stop");
  }

  /** Installs the hook for {@code runner}; call before {@code runner.run()}. */
  static GracefulStop install(Runner runner, Duration grace) {
    GracefulStop stop = new GracefulStop(runner, grace);
    Runtime.getRuntime().addShutdownHook(stop.hook);
    return stop;
  }

  /** True once a signal asked the runner to stop. */
  boolean signalled() {
    return signalled;
  }

  /** The command finished its work: it exits 0 now, even when a signal stopped it. */
  void succeeded() {
    exitCode = 0;
  }

  /** The command is done with the runner: a pending signal may end the JVM now. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook is running and waits for the latch below.
    }
    done.countDown();
  }
}
