package dev.drover.engine.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and kills the command processes a dead runner left behind. A runner killed with SIGKILL
 * cannot kill its children; they are re-parented and keep working, so the task they execute could
 * run twice at once when it is rescued. Every command inherits {@value #RUNNER_ENV} naming its
 * runner (and passes it on to what it starts), which is how they are found: by reading {@code
 * /proc/<pid>/environ}. Where there is no /proc (not Linux) nothing is found, and such orphans end
 * on their own or at the task type's timeout only.
 */
public final class Orphans {
  /** The environment variable naming the runner a command runs for. */
  public static final String RUNNER_ENV = "DROVER_RUNNER";

  private static final Logger log = LoggerFactory.getLogger(Orphans.class);

  private Orphans() {}

  /** Kills every process that runs for {@code runner}; returns how many there were. */
  public static int kill(String runner) {
    byte[] marker = ("\0" + RUNNER_ENV + "=" + runner + "\0").getBytes(StandardCharsets.UTF_8);
    long self = ProcessHandle.current().pid();
    List<ProcessHandle> orphans =
        ProcessHandle.allProcesses()
            .filter(p -> p.pid() != self && environContains(p.pid(), marker))
            .toList();
    for (ProcessHandle p : orphans) {
      log.info("killing pid {} left behind by runner {}", p.pid(), runner);
      ProcessTree.kill(p, Duration.ZERO); // returns once the tree is gone
    }
    return orphans.size();
  }

  /**
   * True if the process's environment holds {@code marker} (NUL-separated, so a leading NUL is
   * prepended).
   */
  private static boolean environContains(long pid, byte[] marker) {
    byte[] env;
    try {
      env = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
    } catch (IOException | SecurityException e) {
      return false; // gone, another user's, or no /proc
    }
    byte[] text = new byte[env.length + 1];
    System.arraycopy(env, 0, text, 1, env.length);
    return indexOf(text, marker) >= 0;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
