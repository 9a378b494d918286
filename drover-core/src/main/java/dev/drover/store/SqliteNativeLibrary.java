package dev.drover.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Extracts sqlite-jdbc's native library once per user and driver version, into a cache directory,
 * and has the driver load it from there.
 *
 * <p>Why: left alone, the driver copies its 1.1 MB library into the temporary directory on every
 * start (under a random name, with a lock file, both deleted at exit) and first deletes the copies
 * of other processes that have no lock file. Processes that start and stop together race on that
 * clean-up: at exit the lock file goes before the library, another process's clean-up sees the
 * library alone and deletes it while its owner's exit hook does too, and the loser prints "Failed
 * to delete old native lib" with a stack trace. A process killed with SIGKILL leaves its copy
 * behind for good. Copying and comparing the library also costs each command tens of milliseconds.
 *
 * <p>Here the library is written once to {@code ~/.cache/drover/sqlite-jdbc-VERSION/OS-ARCH/} (to a
 * temporary file that is renamed into place, so a concurrent process sees the whole file or none),
 * and the driver is told to load it ({@code org.sqlite.lib.path}, {@code org.sqlite.lib.name}) and
 * to clean up in that directory ({@code org.sqlite.tmpdir}), where no file has the {@code
 * sqlite-VERSION} prefix it deletes. When the cache cannot be written, or the application set any
 * of these properties itself, the driver keeps its own ways, silently.
 */
final class SqliteNativeLibrary {
  /** A system property naming the cache directory instead of {@code ~/.cache/drover}. */
  static final String CACHE_DIR_PROPERTY = "drover.cache.dir";

  private static final String LIB_PATH = "org.sqlite.lib.path";
  private static final String LIB_NAME = "org.sqlite.lib.name";
  private static final String TMP_DIR = "org.sqlite.tmpdir";

  private static boolean prepared;

  private SqliteNativeLibrary() {}

  /** Points the driver at the cached library; call it before the first SQLite connection. */
  static synchronized void prepare() {
    if (prepared) {
      return;
    }
    prepared = true;
    if (System.getProperty(LIB_PATH) != null
        || System.getProperty(LIB_NAME) != null
        || System.getProperty(TMP_DIR) != null) {
      return;
    }
    cacheRoot()
        .flatMap(SqliteNativeLibrary::cached)
        .ifPresent(
            library -> {
              String dir = library.getParent().toString();
              System.setProperty(LIB_PATH, dir);
              System.setProperty(LIB_NAME, library.getFileName().toString());
              System.setProperty(TMP_DIR, dir);
            });
  }

  /**
   * The driver's library for this platform under {@code root}, extracted there first if it is
   * missing or incomplete; empty if the driver has none for this platform or it cannot be written.
   *
   * <p>A library is complete when its size is the one recorded beside it ({@code NAME.size}) after
   * it was extracted, so a reuse reads neither the jar nor the driver's platform detection, which
   * runs {@code uname} in a new process and scans {@code /proc}. The directory is named after
   * {@code os.name} and {@code os.arch}; a home shared by glibc and musl systems of one arch would
   * share a library that one of them cannot load, and the driver then extracts its own copy.
   */
  static Optional<Path> cached(Path root) {
    try {
      Path dir = root.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion()).resolve(platform());
      Path library = dir.resolve(LibraryLoaderUtil.getNativeLibName());
      Path size = dir.resolve(library.getFileName() + ".size");
      if (complete(library, size)) {
        return Optional.of(library);
      }
      String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + library.getFileName();
      URL url = SQLiteJDBCLoader.class.getResource(resource);
      if (url == null) {
        return Optional.empty();
      }
      Files.createDirectories(dir);
      try (InputStream in = url.openStream()) {
        extract(in, library);
      }
      byte[] recorded = Long.toString(Files.size(library)).getBytes(StandardCharsets.US_ASCII);
      extract(new ByteArrayInputStream(recorded), size);
      return Optional.of(library);
    } catch (IOException | RuntimeException e) {
      // Not writable (a read-only home, no home): the driver extracts to the temp dir as before.
      return Optional.empty();
    }
  }

  private static boolean complete(Path library, Path size) throws IOException {
    return Files.isRegularFile(library)
        && Files.isRegularFile(size)
        && Files.readString(size, StandardCharsets.US_ASCII)
            .equals(Long.toString(Files.size(library)));
  }

  private static String platform() {
    String platform = System.getProperty("os.name") + "-" + System.getProperty("os.arch");
    return platform.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** Writes {@code in} to a temporary file beside {@code target}, then renames it into place. */
  private static void extract(InputStream in, Path target) throws IOException {
    Path temp =
        Files.createTempFile(
            target.getParent(),
            target.getFileName() + ".",
            ".tmp",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try {
      try (FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        out.transferFrom(Channels.newChannel(in), 0, Long.MAX_VALUE);
        // On disk before the rename: a crash must not leave a complete name on partial content.
        out.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** {@code -Ddrover.cache.dir}, or {@code $XDG_CACHE_HOME/drover}, or {@code ~/.cache/drover}. */
  private static Optional<Path> cacheRoot() {
    try {
      String configured = System.getProperty(CACHE_DIR_PROPERTY);
      if (configured != null && !configured.isBlank()) {
        return Optional.of(Path.of(configured));
      }
      String xdg = System.getenv("XDG_CACHE_HOME");
      if (xdg != null && Path.of(xdg).isAbsolute()) {
        return Optional.of(Path.of(xdg, "drover"));
      }
      String home = System.getProperty("user.home");
      if (home != null && Path.of(home).isAbsolute()) {
        return Optional.of(Path.of(home, ".cache", "drover"));
      }
    } catch (RuntimeException e) {
      // an unusable path: no cache
    }
    return Optional.empty();
  }
}
