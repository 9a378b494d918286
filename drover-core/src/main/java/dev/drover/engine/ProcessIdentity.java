package dev.drover.engine;

import dev.drover.engine.command.ProcessTree;
import dev.drover.model.RunnerRecord;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A process as the process table names it: host, pid and the time the process started. The start
 * time matters because pids are reused: a row whose pid now belongs to a younger process is dead.
 */
public record ProcessIdentity(String host, long pid, Instant started) {
  /**
   * Start times are read from /proc in clock ticks; two readings of one process agree within this.
   */
  private static final Duration START_TOLERANCE = Duration.ofSeconds(1);

  public static ProcessIdentity current() {
    // RuntimeMXBean's name is "pid@host".
    String[] pidAtHost = ManagementFactory.getRuntimeMXBean().getName().split("@", 2);
    String host = pidAtHost.length == 2 ? pidAtHost[1] : "localhost";
    ProcessHandle self = ProcessHandle.current();
    return new ProcessIdentity(host, self.pid(), self.info().startInstant().orElse(null));
  }

  /** True if {@code runner} runs on this process's host. */
  public boolean sameHost(RunnerRecord runner) {
    return host.equals(runner.host());
  }

  /**
   * The live process of a runner on this host, if it is still running (not a zombie, pid not
   * reused).
   */
  public static Optional<ProcessHandle> alive(RunnerRecord runner) {
    return ProcessHandle.of(runner.pid())
        .filter(ProcessTree::isRunning)
        .filter(
            p ->
                runner.pidStarted() == null
                    || p.info()
                        .startInstant()
                        .map(
                            s ->
                                Duration.between(s, runner.pidStarted())
                                        .abs()
                                        .compareTo(START_TOLERANCE)
                                    <= 0)
                        .orElse(true));
  }
}
