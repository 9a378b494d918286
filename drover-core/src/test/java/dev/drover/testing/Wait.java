package dev.drover.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** A bounded wait for a condition, for tests: never spins forever, says what it waited for. */
public final class Wait {
  private static final long POLL_MILLIS = 10;

  private Wait() {}

  /** Returns once {@code condition} holds; fails after {@code limit}, naming {@code what}. */
  public static void until(String what, Duration limit, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("still waiting after " + limit + " for: " + what);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }
}
