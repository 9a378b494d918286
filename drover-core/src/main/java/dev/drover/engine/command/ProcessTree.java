package dev.drover.engine.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a process and everything it started.
 *
 * <p>Why the whole tree, and in this order: killing only the process we started would leave its
 * children running, still writing to the run's log files and still doing the work, while the task
 * is retried elsewhere; that breaks the one-execution-at-a-time promise. The tree is listed
 * <em>before</em> any signal is sent, because a process whose parent dies is re-parented to init
 * and {@link ProcessHandle#descendants()} can no longer find it; the handles listed stay valid
 * (they carry the start time, so a reused pid is not hit). Descendants get SIGTERM first and the
 * root last, so a parent is still there to collect its children and does not react to their deaths
 * by starting new ones before it is told to stop. After a grace period, whatever is still alive,
 * and anything it started since the listing, gets SIGKILL.
 *
 * <p>"Dead" includes zombies: a killed process whose parent is gone waits for init to collect it,
 * and {@link ProcessHandle#isAlive()} calls it alive until then; in a container whose init does not
 * reap promptly that can be forever.
 *
 * <p>A process that detaches itself (double fork and {@code setsid}) before the listing escapes;
 * Java cannot create process groups or cgroups to catch it.
 */
public final class ProcessTree {
  private static final Logger log = LoggerFactory.getLogger(ProcessTree.class);
  private static final Duration KILL_WAIT = Duration.ofSeconds(5);
  private static final int KILL_ROUNDS = 3;
  private static final long POLL_MILLIS = 10;

  private ProcessTree() {}

  /**
   * Kills {@code root} and its descendants, waiting up to {@code grace} after SIGTERM. Returns when
   * every process is gone or the kill rounds are spent. An interrupt during the wait cuts the grace
   * short (SIGKILL follows at once) and is restored on return.
   */
  public static void kill(ProcessHandle root, Duration grace) {
    Set<ProcessHandle> tree = snapshot(List.of(root));
    tree.stream().filter(p -> !p.equals(root)).forEach(ProcessHandle::destroy);
    root.destroy();
    boolean interrupted = !awaitExit(tree, grace);
    for (int round = 0; round < KILL_ROUNDS; round++) {
      Set<ProcessHandle> alive = snapshot(tree.stream().filter(ProcessTree::isRunning).toList());
      if (alive.isEmpty()) {
        break;
      }
      log.debug("SIGKILL to pids {} still alive after SIGTERM", pids(alive));
      alive.forEach(ProcessHandle::destroyForcibly);
      interrupted |= !awaitExit(alive, KILL_WAIT);
      tree = alive;
    }
    Set<ProcessHandle> survivors = snapshot(tree.stream().filter(ProcessTree::isRunning).toList());
    if (!survivors.isEmpty()) {
      log.warn("pids {} survived SIGKILL", pids(survivors));
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The given processes and all their descendants, descendants first, each once. */
  private static Set<ProcessHandle> snapshot(List<ProcessHandle> tops) {
    Set<ProcessHandle> out = new LinkedHashSet<>();
    for (ProcessHandle top : tops) {
      top.descendants().forEach(out::add);
    }
    out.addAll(tops);
    return out;
  }

  /**
   * Waits up to {@code wait} for {@code process} to be gone (zombies count as gone); false if
   * interrupted while waiting, with the interrupt restored.
   */
  public static boolean awaitExit(ProcessHandle process, Duration wait) {
    boolean done = awaitExit(Set.of(process), wait);
    if (!done) {
      Thread.currentThread().interrupt();
    }
    return done;
  }

  /** Polls until all are dead or the wait is over; false if interrupted while waiting. */
  private static boolean awaitExit(Set<ProcessHandle> processes, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    while (processes.stream().anyMatch(ProcessTree::isRunning)
        && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        return false;
      }
    }
    return true;
  }

  /** Alive and able to run: not gone, and not a zombie waiting for its parent to collect it. */
  public static boolean isRunning(ProcessHandle process) {
    if (!process.isAlive()) {
      return false;
    }
    try {
      // /proc/<pid>/stat is "pid (comm) S ...": the state letter follows the last ')'.
      String stat =
          new String(
              Files.readAllBytes(Path.of("/proc", process.pid() + "", "stat")),
              StandardCharsets.ISO_8859_1);
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException | RuntimeException e) {
      return process.isAlive(); // no /proc (not Linux), or it just went away
    }
  }

  private static String pids(Set<ProcessHandle> processes) {
    return processes.stream().map(p -> Long.toString(p.pid())).collect(Collectors.joining(","));
  }
}
