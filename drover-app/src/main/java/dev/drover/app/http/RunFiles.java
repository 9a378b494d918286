package dev.drover.app.http;

import dev.drover.store.Store;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The runs' directories a runner leaves under its runs dir ({@code RUNS_DIR/TYPE/BACKEND_ID}, see
 * {@code Execution}), as {@code drover task show} finds them: the tail of a run's output, and their
 * removal when tasks are deleted. A null runs dir (a server started without one) has none.
 */
final class RunFiles {
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

  /** Removes the directories of deleted runs; returns how many there were. */
  int remove(List<Store.DeletedRun> runs) {
    int removed = 0;
    for (Store.DeletedRun r : runs) {
      Path dir = dir(r.type(), r.backendId());
      if (dir != null && removeTree(dir)) {
        removed++;
      }
    }
    return removed;
  }

  private static boolean removeTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
      return true;
    } catch (IOException e) {
      return false; // the rows are gone; a directory left behind is only disk
    }
  }
}
