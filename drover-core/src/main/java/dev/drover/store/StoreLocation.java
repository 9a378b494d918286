package dev.drover.store;

import dev.drover.ValidationException;
import java.nio.file.Path;

/**
 * Where a Drover store lives: a data directory holding an embedded SQLite database, or a PostgreSQL
 * server named by a JDBC URL.
 */
public record StoreLocation(Path dataDir, String jdbcUrl) {
  /** The data directory used when none is given. */
  public static final Path DEFAULT_DATA_DIR = Path.of("drover-data");

  /** The SQLite file inside a data directory. */
  public static final String DATABASE_FILE = "drover.db";

  public StoreLocation {
    if ((dataDir == null) == (jdbcUrl == null)) {
      throw new ValidationException("db", "give either a data directory or a database URL");
    }
    if (jdbcUrl != null && !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new ValidationException(
          "db",
          "unsupported database URL '"
              + jdbcUrl
              + "' (expected jdbc:postgresql://HOST/DB, or use --data-dir for SQLite)");
    }
  }

  public static StoreLocation dataDir(Path dir) {
    return new StoreLocation(dir, null);
  }

  public static StoreLocation postgres(String jdbcUrl) {
    return new StoreLocation(null, jdbcUrl);
  }

  /** A database URL wins over a data directory; with neither, the default data directory. */
  public static StoreLocation of(Path dataDir, String jdbcUrl) {
    if (jdbcUrl != null && !jdbcUrl.isBlank()) {
      return postgres(jdbcUrl.trim());
    }
    return dataDir(dataDir == null ? DEFAULT_DATA_DIR : dataDir);
  }

  public boolean isSqlite() {
    return dataDir != null;
  }

  /**
   * For messages: the data directory or the URL without its query string (which may hold a
   * password).
   */
  public String describe() {
    if (isSqlite()) {
      return dataDir.toString();
    }
    int q = jdbcUrl.indexOf('?');
    return q < 0 ? jdbcUrl : jdbcUrl.substring(0, q);
  }
}
