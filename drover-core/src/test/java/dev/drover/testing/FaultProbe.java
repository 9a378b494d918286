package dev.drover.testing;

import dev.drover.store.StoreProbe;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes a store fail at one step: the statements whose query name starts with {@code step}, or, for
 * the step {@link #COMMIT}, the commit of a transaction that ran one of {@code passQueries}. It
 * fails the occurrences of that step listed in {@code failing} (counting from 1), so a test can
 * fail a later pass, not only the first, or several in a row.
 */
public final class FaultProbe implements StoreProbe {
  /** The step name that fails commits instead of statements. */
  public static final String COMMIT = "commit";

  private final String step;
  private final Set<Integer> failing;
  private final Set<String> passQueries;
  private final AtomicInteger seen = new AtomicInteger();
  private final AtomicInteger fired = new AtomicInteger();
  private final ThreadLocal<Boolean> inPass = ThreadLocal.withInitial(() -> false);

  public FaultProbe(String step, Set<Integer> failing, Set<String> passQueries) {
    this.step = step;
    this.failing = Set.copyOf(failing);
    this.passQueries = Set.copyOf(passQueries);
  }

  /** How many faults were injected. */
  public int fired() {
    return fired.get();
  }

  @Override
  public void beforeStatement(String queryName) {
    if (passQueries.stream().anyMatch(queryName::startsWith)) {
      inPass.set(true);
    }
    if (!step.equals(COMMIT) && queryName.startsWith(step)) {
      maybeFail(queryName);
    }
  }

  @Override
  public void beforeCommit() {
    boolean pass = inPass.get();
    inPass.set(false);
    if (step.equals(COMMIT) && pass) {
      maybeFail("commit");
    }
  }

  private void maybeFail(String what) {
    if (failing.contains(seen.incrementAndGet())) {
      fired.incrementAndGet();
      inPass.set(false); // the transaction rolls back
      throw new InjectedFault("injected fault at " + what + " (occurrence " + seen.get() + ")");
    }
  }

  /** The failure a {@link FaultProbe} injects. */
  public static final class InjectedFault extends RuntimeException {
    InjectedFault(String message) {
      super(message);
    }
  }
}
