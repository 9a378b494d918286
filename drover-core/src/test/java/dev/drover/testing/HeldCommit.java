package dev.drover.testing;

import dev.drover.store.StoreProbe;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds the first commit after {@link #arm} just before it happens, until {@link #release}: a test
 * races another transaction against a write that has done everything but commit. Made with {@link
 * #ofTransactionsRunning}, it holds only the commit of a transaction that ran a given statement.
 */
public final class HeldCommit implements StoreProbe {
  private final CountDownLatch reached = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  /** The query name prefix a held transaction must have run, or null for any transaction. */
  private final String statement;

  private final ThreadLocal<Boolean> ranStatement = ThreadLocal.withInitial(() -> false);
  private volatile boolean armed;
  private volatile boolean holding;

  /** Holds the first commit after {@link #arm}, whatever its transaction ran. */
  public HeldCommit() {
    this(null);
  }

  private HeldCommit(String statement) {
    this.statement = statement;
  }

  /**
   * Holds the first commit after {@link #arm} of a transaction that ran a statement whose query
   * name starts with {@code statement}; other commits go ahead.
   */
  public static HeldCommit ofTransactionsRunning(String statement) {
    return new HeldCommit(statement);
  }

  /** Holds the next commit. */
  public void arm() {
    armed = true;
  }

  /** Waits up to {@code timeout} for the held write to reach its commit; false if it did not. */
  public boolean awaitReached(Duration timeout) throws InterruptedException {
    return reached.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whether a commit is held at this moment. */
  public boolean holding() {
    return holding;
  }

  /** Lets the held commit go ahead (and any later one; safe to call more than once). */
  public void release() {
    release.countDown();
  }

  @Override
  public void beforeStatement(String queryName) {
    if (statement != null && queryName.startsWith(statement)) {
      ranStatement.set(true);
    }
  }

  @Override
  public void beforeCommit() {
    boolean ran = statement == null || ranStatement.get();
    ranStatement.set(false);
    if (!armed || !ran) {
      return;
    }
    armed = false;
    holding = true;
    reached.countDown();
    try {
      release.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while held before commit", e);
    } finally {
      holding = false;
    }
  }
}
