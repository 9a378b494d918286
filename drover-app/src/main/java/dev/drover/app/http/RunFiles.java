package dev.drover.app.http;

import dev.drover.app.ApiBridge;
import dev.drover.store.Store;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runs' directories a runner leaves under its runs dir ({@code RUNS_DIR/TYPE/BACKEND_ID}, see
 * {@code Execution}), as {@code drover task show} finds them: the tail of a run's output, and their
 * removal when tasks are deleted. A null runs dir (a server started without one) has none.
 */
final class RunFiles {
  private static final Logger log = LoggerFactory.getLogger(RunFiles.class);

  /** The most of a file's end read for its tail, so a huge log costs no more than this. */
  static final int TAIL_BYTES = 64 * 1024;

  private final Path runsDir;

  RunFiles(Path runsDir) {
    this.runsDir = runsDir;
  }

  /** The run's directory, or null if there is none. */
  Path dir(String type, String backendId) {
    if (runsDir == null || type == null || backendId == null) {
      return null;
    }
    Path dir = runsDir.resolve(type).resolve(backendId).normalize();
    return dir.startsWith(runsDir) && Files.isDirectory(dir) ? dir : null;
  }

  /** The last {@code lines} lines of a file (of its last {@link #TAIL_BYTES} at most). */
  static List<String> tail(Path file, int lines) throws IOException {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long length = in.length();
      int n = (int) Math.min(length, TAIL_BYTES);
      byte[] bytes = new byte[n];
      in.seek(length - n);
      in.readFully(bytes);
      List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n", -1));
      if (!all.isEmpty() && all.get(all.size() - 1).isEmpty()) {
        all = all.subList(0, all.size() - 1);
      }
      if (n < length && !all.isEmpty()) {
        all = all.subList(1, all.size()); // the first line was cut
      }
      return all.subList(Math.max(0, all.size() - lines), all.size());
    }
  }

  /** Removes the directories of deleted runs, as {@code task delete} does; returns how many. */
  int remove(List<Store.DeletedRun> runs) {
    return runsDir == null
        ? 0
        : ApiBridge.removeRunDirectories(runsDir, runs, w -> log.warn("{}", w));
  }
}
