package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's native library is extracted once into the cache, reused afterwards, replaced when
 * incomplete, and left to the driver's own ways when the cache cannot be written. (That the driver
 * then loads it, with nothing left in the temp dir, is checked on real processes by {@code
 * NativeLibraryCacheIT} in drover-app.)
 */
class SqliteNativeLibraryTest {
  @TempDir Path cache;

  @Test
  void extractsTheLibraryOnceAndReusesIt() throws IOException {
    Path library = SqliteNativeLibrary.cached(cache).orElseThrow();
    assertThat(library).startsWith(cache).isRegularFile();
    assertThat(library.getParent().getParent().getFileName().toString())
        .startsWith("sqlite-jdbc-3.");
    assertThat(Files.size(library)).isGreaterThan(100_000);

    FileTime old = FileTime.fromMillis(1_000_000);
    Files.setLastModifiedTime(library, old);
    assertThat(SqliteNativeLibrary.cached(cache)).contains(library);
    assertThat(Files.getLastModifiedTime(library)).isEqualTo(old);
    assertThat(filesIn(library.getParent()))
        .containsExactlyInAnyOrder(
            library.getFileName().toString(), library.getFileName() + ".size");
  }

  @Test
  void replacesAnIncompleteLibrary() throws IOException {
    Path library = SqliteNativeLibrary.cached(cache).orElseThrow();
    long size = Files.size(library);
    Files.write(library, new byte[] {1, 2, 3});

    assertThat(SqliteNativeLibrary.cached(cache)).contains(library);
    assertThat(Files.size(library)).isEqualTo(size);
    assertThat(filesIn(library.getParent()))
        .containsExactlyInAnyOrder(
            library.getFileName().toString(), library.getFileName() + ".size");
  }

  @Test
  void givesNothingWhenTheCacheCannotBeWritten() throws IOException {
    // A file where the directory should be: not writable even for root, who ignores permissions.
    Path blocked = Files.writeString(cache.resolve("not-a-directory"), "x");

    assertThat(SqliteNativeLibrary.cached(blocked)).isEqualTo(Optional.empty());
  }

  private static String[] filesIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).toArray(String[]::new);
    }
  }
}
