package dev.drover.bench;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** CPU nanoseconds added up by name, for the bench's profiles of a thread's steps. */
final class CpuTally {
  private final Map<String, LongAdder> nanos = new ConcurrentHashMap<>();

  void add(String name, long cpuNanos) {
    nanos.computeIfAbsent(name, k -> new LongAdder()).add(cpuNanos);
  }

  /** Starts the counts afresh. */
  void reset() {
    nanos.clear();
  }

  /** CPU seconds per name, busiest first. */
  Map<String, Double> seconds() {
    Map<String, Double> seconds = new LinkedHashMap<>();
    nanos.entrySet().stream()
        .sorted(
            Map.Entry.<String, LongAdder>comparingByValue(Comparator.comparingLong(LongAdder::sum))
                .reversed())
        .forEach(e -> seconds.put(e.getKey(), e.getValue().sum() / 1e9));
    return seconds;
  }
}
