package dev.drover.engine;

import java.time.Duration;

/**
 * Makes a stop hold whatever the database does: a store call can block for the connection timeout
 * (30 s by default) while the database is away, and the loop sees a stop only between calls. Once
 * armed, the watchdog interrupts the loop thread from {@link #OVERRUN} after the stop deadline
 * until the runner has finished (a pool waiting for a connection gives up when interrupted). While
 * the database answers, the loop has given everything back at the deadline and is gone by then.
 */
final class StopWatchdog {
  /** How long after the stop deadline a loop still stuck in a store call is interrupted. */
  static final Duration OVERRUN = Duration.ofSeconds(2);

  private volatile Thread loop;
  private volatile boolean overran;
  private Thread watchdog; // guarded by this
  private boolean finished; // guarded by this

  /** The loop runs on {@code thread}; a stop asked for before this arms nothing yet. */
  void attach(Thread thread) {
    loop = thread;
  }

  /** Starts watching a stop whose deadline is {@code grace} from now; once only. */
  synchronized void arm(Duration grace) {
    Thread l = loop;
    if (l == null || watchdog != null || finished) {
      return;
    }
    long firstMs = Math.max(0, grace.plus(OVERRUN).toMillis());
    watchdog =
        new Thread(
            () -> {
              try {
                Thread.sleep(firstMs);
                while (interrupt(l)) {
                  Thread.sleep(200);
                }
              } catch (InterruptedException e) {
                // the runner finished and stopped the watchdog
              }
            },
            "drover-stop-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private synchronized boolean interrupt(Thread l) {
    if (finished) {
      return false;
    }
    overran = true;
    l.interrupt();
    return true;
  }

  /** True once the watchdog has interrupted the loop. */
  boolean overran() {
    return overran;
  }

  /**
   * The runner finished: the watchdog stops, and an interrupt it left on the calling loop thread is
   * cleared (it was the watchdog's, not the caller's).
   */
  void finish() {
    Thread w;
    synchronized (this) {
      finished = true;
      w = watchdog;
    }
    if (w != null) {
      w.interrupt();
    }
    if (overran) {
      Thread.interrupted();
    }
  }
}
