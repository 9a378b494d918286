package dev.drover.app;

import dev.drover.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Removes the directories of deleted runs ({@code <runs dir>/<type>/<run id>}), after their rows
 * are gone: a directory left by a failed removal is only disk, never a task.
 */
final class RunDirectories {
  private RunDirectories() {}

  /** Removes each run's directory that exists; returns how many were removed. */
  static int remove(Path runsDir, List<Store.DeletedRun> runs, Consumer<String> warn) {
    int removed = 0;
    for (Store.DeletedRun r : runs) {
      if (removeTree(runsDir.resolve(r.type()).resolve(r.backendId()), warn)) {
        removed++;
      }
    }
    return removed;
  }

  private static boolean removeTree(Path dir, Consumer<String> warn) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
      return true;
    } catch (IOException e) {
      warn.accept("could not remove " + dir + ": " + e.getMessage());
      return false;
    }
  }
}
