package dev.drover.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
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
 * <p>Here the library is written once to {@code ~/.cache/drover/sqlite-jdbc-VERSION/OS/ARCH/} (to a
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
  private static final String RESOURCE_ROOT = "/org/sqlite/native";

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
   */
  static Optional<Path> cached(Path root) {
    String resourceDir = LibraryLoaderUtil.getNativeLibResourcePath();
    String name = LibraryLoaderUtil.getNativeLibName();
    URL resource = SQLiteJDBCLoader.class.getResource(resourceDir + "/" + name);
    if (resource == null || !resourceDir.startsWith(RESOURCE_ROOT + "/")) {
      return Optional.empty();
    }
    Path dir =
        root.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion())
            .resolve(resourceDir.substring(RESOURCE_ROOT.length() + 1));
    Path library = dir.resolve(name);
    try {
      URLConnection connection = resource.openConnection();
      long size = connection.getContentLengthLong();
      if (size > 0 && Files.isRegularFile(library) && Files.size(library) == size) {
        return Optional.of(library);
      }
      Files.createDirectories(dir);
      try (InputStream in = connection.getInputStream()) {
        extract(in, library);
      }
      return size < 0 || Files.size(library) == size ? Optional.of(library) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      // Not writable (a read-only home, no home): the driver extracts to the temp dir as before.
      return Optional.empty();
    }
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
