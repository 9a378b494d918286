package dev.drover.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waits for SIGTERM or SIGINT in a command that has no runner to stop ({@code serve --no-runner}):
 * the JVM's shutdown hook releases {@link #await}, waits until the command has closed what it holds
 * ({@link #close}), then ends the JVM with code 0, as {@link GracefulStop} does for a runner. Left
 * alone, a JVM stopped by a signal exits 128 + the signal number.
 */
final class SignalStop implements AutoCloseable {
  private final CountDownLatch signalled = new CountDownLatch(1);
  private final CountDownLatch done = new CountDownLatch(1);
  private Thread hook;

  private SignalStop() {}

  static SignalStop install() {
    SignalStop stop = new SignalStop();
    stop.hook =
        new Thread(
            () -> {
              stop.signalled.countDown();
              try {
                stop.done.await(GracefulStop.LAST_WORDS.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              System.out.flush();
              System.err.flush();
              Runtime.getRuntime().halt(0);
            },
            "drover-stop");
    Runtime.getRuntime().addShutdownHook(stop.hook);
    return stop;
  }

  /** Blocks until a signal asks the process to stop. */
  void await() throws InterruptedException {
    signalled.await();
  }

  /**
   * The command has closed what it held: a pending signal may end the JVM now. Without a signal the
   * hook is removed, so that the command's own exit code (2 for bad input) stands.
   */
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
