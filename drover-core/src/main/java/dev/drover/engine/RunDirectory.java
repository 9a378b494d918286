package dev.drover.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A run's output directory, {@code RUNS_DIR/TYPE/RUN_ID}: where a runner puts what a run wrote, and
 * what is removed once no row names the run any more (a run not kept, a run deleted).
 */
public final class RunDirectory {
  private RunDirectory() {}

  /** The directory of run {@code runId} of task type {@code type} under {@code runsDir}. */
  public static Path of(Path runsDir, String type, String runId) {
    return runsDir.resolve(type).resolve(runId);
  }

  /**
   * Removes {@code dir} with everything in it; false, and nothing done, when it is not a directory.
   */
  public static boolean removeTree(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
    return true;
  }
}
