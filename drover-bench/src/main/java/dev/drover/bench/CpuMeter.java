package dev.drover.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The CPU time a system spent over a timed window, split between the database server and the
 * system's own side: what bounds a burn-down on a machine of two cores, where both share them.
 *
 * <p>The server is every process named {@code postgres} (the bench's PostgreSQL runs on this
 * machine); the client is this JVM and its child processes other than PostgreSQL and the shell
 * loops of the contended workload (graphile-worker's node runner is one). Processes are read from
 * Linux's {@code /proc} every {@link #SAMPLE_EVERY_MS} ms (PostgreSQL's in nanoseconds, from {@code
 * schedstat}; a child's in ticks of 10 ms, from {@code stat}), so a process that ends between two
 * readings loses at most that much of its time; elsewhere both figures are absent.
 */
final class CpuMeter implements AutoCloseable {
  private static final long SAMPLE_EVERY_MS = 200;
  // USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux that Drover's bench runs on.
  private static final long NANOS_PER_TICK = 10_000_000;
  private static final Path PROC = Path.of("/proc");

  /** CPU seconds over the window; null where /proc could not be read. */
  record Reading(Double serverSeconds, Double clientSeconds) {}

  private final boolean readable = Files.isReadable(PROC.resolve("self/stat"));
  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final long jvmStartNanos = os.getProcessCpuTime();
  private final Map<Long, Long> serverFirst = new HashMap<>();
  private final Map<Long, Long> serverLast = new HashMap<>();
  private final Map<Long, Long> childFirst = new HashMap<>();
  private final Map<Long, Long> childLast = new HashMap<>();
  private final Thread sampler;
  private volatile boolean stopped;

  CpuMeter() {
    if (readable) {
      sample(true);
    }
    sampler = new Thread(this::sampleUntilStopped, "drover-bench-cpu-meter");
    sampler.setDaemon(true);
    if (readable) {
      sampler.start();
    }
  }

  /** Stops sampling and returns the time spent since this meter was made. */
  Reading stop() throws InterruptedException {
    double jvmSeconds = (os.getProcessCpuTime() - jvmStartNanos) / 1e9;
    stopped = true;
    sampler.join();
    if (!readable) {
      return new Reading(null, null);
    }
    sample(false);
    return new Reading(spent(serverFirst, serverLast), jvmSeconds + spent(childFirst, childLast));
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    sampler.join();
  }

  private void sampleUntilStopped() {
    while (!stopped) {
      try {
        Thread.sleep(SAMPLE_EVERY_MS);
      } catch (InterruptedException e) {
        return;
      }
      sample(false);
    }
  }

  private void sample(boolean atStart) {
    Set<Long> children =
        ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
    try (DirectoryStream<Path> pids = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path dir : pids) {
        long pid = Long.parseLong(dir.getFileName().toString());
        String stat;
        try {
          stat = Files.readString(dir.resolve("stat"));
        } catch (IOException ended) {
          continue;
        }
        String comm = comm(stat);
        if (comm.equals("postgres")) {
          // A PostgreSQL process has one thread, whose schedstat counts nanoseconds on a core.
          long[] times = schedstat(pid);
          if (times != null) {
            record(pid, times[0], atStart, serverFirst, serverLast);
          }
        } else if (children.contains(pid) && !comm.equals("sh")) {
          record(pid, ticks(stat) * NANOS_PER_TICK, atStart, childFirst, childLast);
        }
      }
    } catch (IOException e) {
      // /proc vanished mid-read: keep the readings so far.
    }
  }

  private static void record(
      long pid, long nanos, boolean atStart, Map<Long, Long> first, Map<Long, Long> last) {
    // A process born within the window spent all of its time in it.
    first.putIfAbsent(pid, atStart ? nanos : 0L);
    last.put(pid, nanos);
  }

  /**
   * CPU time so far, in nanoseconds (counted in ticks of 10 ms), of this JVM's JIT compiler threads
   * (HotSpot's "C1/C2 CompilerThread"), from {@code /proc/self/task}; -1 where that cannot be read.
   */
  static long compilerNanos() {
    long ticks = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(PROC.resolve("self/task"))) {
      for (Path thread : threads) {
        String stat;
        try {
          stat = Files.readString(thread.resolve("stat"));
        } catch (IOException ended) {
          continue;
        }
        if (comm(stat).contains("CompilerThre")) {
          ticks += ticks(stat);
        }
      }
    } catch (IOException | RuntimeException unreadable) {
      return -1;
    }
    return ticks * NANOS_PER_TICK;
  }

  /** The command name in a stat line, "pid (comm) state ...": comm may hold spaces. */
  private static String comm(String stat) {
    return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }

  /**
   * A process's time on a core and its time waiting for one, in nanoseconds, from {@code
   * /proc/<pid>/schedstat} (its main thread's, which is all of a PostgreSQL process); null if it
   * cannot be read, or the process is gone.
   */
  static long[] schedstat(long pid) {
    try {
      String[] fields =
          Files.readString(PROC.resolve(Long.toString(pid)).resolve("schedstat")).trim().split(" ");
      return new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])};
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }

  /**
   * utime + stime (the 14th and 15th fields, counted from comm's last ')') of a process, all its
   * threads, or of one thread, in ticks.
   */
  private static long ticks(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  private static double spent(Map<Long, Long> first, Map<Long, Long> last) {
    long nanos = 0;
    for (Map.Entry<Long, Long> e : last.entrySet()) {
      nanos += e.getValue() - first.get(e.getKey());
    }
    return nanos / 1e9;
  }
}
