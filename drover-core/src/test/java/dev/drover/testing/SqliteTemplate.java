package dev.drover.testing;

import dev.drover.store.StoreLocation;
import dev.drover.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An SQLite store migrated once per test JVM, copied into each data directory that a test wants:
 * copying a file of a few hundred kilobytes costs a millisecond, running Flyway from empty costs
 * hundreds. The store skips Flyway when it opens a schema already at the latest version.
 *
 * <p>The template is closed before it is first copied, and SQLite folds its write-ahead log into
 * the database file when its last connection closes, so the one file holds everything.
 */
public final class SqliteTemplate {
  private static Path template;

  private SqliteTemplate() {}

  /** Makes {@code dataDir} (created if missing) hold a migrated, empty store; returns it. */
  public static Path copyInto(Path dataDir) {
    try {
      Files.createDirectories(dataDir);
      Files.copy(template(), dataDir.resolve(StoreLocation.DATABASE_FILE));
      return dataDir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the migrated SQLite template into " + dataDir, e);
    }
  }

  private static synchronized Path template() throws IOException {
    if (template == null) {
      Path dir = Files.createTempDirectory("drover-sqlite-template");
      Stores.open(StoreLocation.dataDir(dir)).close();
      Path wal = dir.resolve(StoreLocation.DATABASE_FILE + "-wal");
      if (Files.exists(wal) && Files.size(wal) > 0) {
        throw new IllegalStateException("the SQLite template kept a write-ahead log: " + wal);
      }
      template = dir.resolve(StoreLocation.DATABASE_FILE);
      dir.toFile().deleteOnExit();
      template.toFile().deleteOnExit();
    }
    return template;
  }
}
