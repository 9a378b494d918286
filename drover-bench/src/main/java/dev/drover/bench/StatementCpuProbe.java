package dev.drover.bench;

import dev.drover.store.StoreProbe;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

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
  private final Map<String, LongAdder> nanos = new ConcurrentHashMap<>();
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
      nanos.computeIfAbsent(last, k -> new LongAdder()).add(cpu - lastCpu);
    }
    last = name;
    lastCpu = cpu;
  }

  /** Starts the counts afresh. */
  void reset() {
    nanos.clear();
  }

  /** CPU seconds per step, busiest first. */
  Map<String, Double> cpuSeconds() {
    Map<String, Double> seconds = new LinkedHashMap<>();
    nanos.entrySet().stream()
        .sorted(
            Map.Entry.<String, LongAdder>comparingByValue(Comparator.comparingLong(LongAdder::sum))
                .reversed())
        .forEach(e -> seconds.put(e.getKey(), e.getValue().sum() / 1e9));
    return seconds;
  }
}
