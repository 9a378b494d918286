package dev.drover.app;

import dev.drover.engine.RunDirectory;
import dev.drover.store.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

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
      if (removeTree(RunDirectory.of(runsDir, r.type(), r.backendId()), warn)) {
        removed++;
      }
    }
    return removed;
  }

  private static boolean removeTree(Path dir, Consumer<String> warn) {
    try {
      return RunDirectory.removeTree(dir);
    } catch (IOException e) {
      warn.accept("could not remove " + dir + ": " + e.getMessage());
      return false;
    }
  }
}
