package dev.drover.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary directories a test made itself, removed when it is done with them. */
public final class TempDirs {
  private TempDirs() {}

  /** Deletes {@code dir} and everything under it; a file still open or already gone is left. */
  public static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // A file still open, or already gone: the temporary directory is cleared later anyway.
    }
  }
}
