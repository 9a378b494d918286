package dev.drover.engine;

import dev.drover.store.Lease;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the directories of runs that the history does not keep: successes of a type that keeps
 * only failures ({@link dev.drover.model.RunHistory#FAILURES}). No row names such a run, so nothing
 * (an archive, an operator) would ever find its output again, and the disk would fill with it. Each
 * is removed only once the end of its run has committed without a row (never for a run whose lease
 * was lost: a rescue may have written it lost, and its output explains why), and on a thread of its
 * own so that the runner's loop does not wait on the disk.
 */
final class UnkeptRunDirs implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(UnkeptRunDirs.class);

  private final Path runsDir;
  private final ExecutorService remover;

  UnkeptRunDirs(Path runsDir, String owner) {
    this.runsDir = runsDir;
    this.remover =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "drover-run-dirs-" + owner);
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * The runs of {@code notKept}, whose ends just committed without a row in the history: their
   * directories are removed. {@code ended} are the runs the book let go of, by lease. The store's
   * verdict decides, not the type as the runner read it at the claim, so that a type changed since
   * never costs a kept run its output.
   */
  void committed(List<Lease> notKept, Map<Lease, HeldRun> ended) {
    for (Lease lease : notKept) {
      HeldRun run = ended.get(lease);
      if (run != null && run.leftRunDir) {
        Path dir = run.runDir(runsDir);
        remover.execute(() -> remove(dir));
      }
    }
  }

  private static void remove(Path dir) {
    try {
      RunDirectory.removeTree(dir);
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not remove {}, the output of a run that is not kept: {}", dir, e.toString());
    }
  }

  /** Finishes the removals already asked for, for a few seconds at most. */
  @Override
  public void close() {
    remover.shutdown();
    try {
      if (!remover.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("run directories not kept are still being removed; leaving them");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
