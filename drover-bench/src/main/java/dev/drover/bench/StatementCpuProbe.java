package dev.drover.bench;

import dev.drover.store.StoreProbe;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;

/**
 * Where one thread's CPU goes between the store's steps, for SQLite, whose statements run inside
 * the calling thread: the thread's CPU time from one statement (or commit) of the store to the next
 * is counted under the earlier one. That is the statement, the reading of its rows and what the
 * thread did with them before its next step, so a step's figure includes a little of Drover's own
 * Java; a transaction's last statement also carries the commit's preparation.
 */
final class StatementCpuProbe implements StoreProbe {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final String threadName;
  private final CpuTally tally = new CpuTally();
  private String last;
  private long lastCpu;

  StatementCpuProbe(String threadName) {
    this.threadName = threadName;
  }

  @Override
  public void beforeStatement(String queryName) {
    step(queryName);
  }

  @Override
  public void beforeCommit() {
    step("commit");
  }

  private void step(String name) {
    if (!Thread.currentThread().getName().equals(threadName)) {
      return;
    }
    long cpu = THREADS.getCurrentThreadCpuTime();
    if (last != null) {
      tally.add(last, cpu - lastCpu);
    }
    last = name;
    lastCpu = cpu;
  }

  /** Starts the counts afresh. */
  void reset() {
    tally.reset();
  }

  /** CPU seconds per step, busiest first. */
  Map<String, Double> cpuSeconds() {
    return tally.seconds();
  }
}
