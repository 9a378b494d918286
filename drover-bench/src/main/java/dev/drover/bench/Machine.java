package dev.drover.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Where the figures were measured: processor, cores, memory, system, JVM and database versions. */
record Machine(
    String cpu, int cores, long memoryMb, String os, String java, Map<String, String> databases) {
  static Machine describe(Databases databases, List<Databases.Kind> kinds) throws Exception {
    Map<String, String> versions = new LinkedHashMap<>();
    for (Databases.Kind k : kinds) {
      versions.put(k.label(), databases.version(k));
    }
    return new Machine(
        procValue("/proc/cpuinfo", "model name").orElse(System.getProperty("os.arch")),
        Runtime.getRuntime().availableProcessors(),
        procValue("/proc/meminfo", "MemTotal")
            .map(v -> Long.parseLong(v.replaceAll("\\D", "")) / 1024)
            .orElse(-1L),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        versions);
  }

  /** The value of the first "key : value" line of a /proc file, if there is one (Linux only). */
  private static Optional<String> procValue(String file, String key) {
    try {
      return Files.readAllLines(Path.of(file)).stream()
          .filter(l -> l.startsWith(key))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The 1-, 5- and 15-minute load averages (Linux), or "unknown". Recorded before and after a run:
   * on a shared machine, a load above the core count means the figures include waiting for a CPU.
   */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** One line for the Markdown header. */
  String summary() {
    return cpu
        + ", "
        + cores
        + " cores, "
        + (memoryMb / 1024)
        + " GiB RAM, "
        + os
        + ", "
        + java
        + ", "
        + String.join(", ", databases.values());
  }
}
