package dev.drover.testing;

import dev.drover.store.StoreProbe;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds the first commit after {@link #arm} just before it happens, until {@link #release}: a test
 * races another transaction against a write that has done everything but commit.
 */
public final class HeldCommit implements StoreProbe {
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private volatile boolean armed;

  /** Holds the next commit. */
  public void arm() {
    armed = true;
  }

  /** Waits up to {@code timeout} for the held write to reach its commit; false if it did not. */
  public boolean awaitReached(Duration timeout) throws InterruptedException {
    return reached.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Lets the held commit go ahead (and any later one; safe to call more than once). */
  public void release() {
    release.countDown();
  }

  @Override
  public void beforeCommit() {
    if (!armed) {
      return;
    }
    armed = false;
    reached.countDown();
    try {
      release.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while held before commit", e);
    }
  }
}
