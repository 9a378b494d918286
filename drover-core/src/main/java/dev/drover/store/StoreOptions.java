package dev.drover.store;

import dev.drover.ValidationException;
import java.time.Duration;

/**
 * How a store is opened, beyond where it is.
 *
 * @param poolSize the most connections the store keeps open
 * @param sqliteBusyTimeout how long a SQLite statement waits for another process's write lock
 *     before it fails
 * @param connectionTimeout how long a call waits for a connection (on PostgreSQL, for the server)
 *     before it fails
 * @param probe sees statements and commits; {@link StoreProbe#NONE} in production
 */
public record StoreOptions(
    int poolSize, Duration sqliteBusyTimeout, Duration connectionTimeout, StoreProbe probe) {
  public static final int DEFAULT_POOL_SIZE = 8;
  public static final Duration DEFAULT_SQLITE_BUSY_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(30);
  public static final StoreOptions DEFAULT =
      new StoreOptions(
          DEFAULT_POOL_SIZE,
          DEFAULT_SQLITE_BUSY_TIMEOUT,
          DEFAULT_CONNECTION_TIMEOUT,
          StoreProbe.NONE);

  public StoreOptions {
    ValidationException.check(poolSize > 0, "pool_size", "must be positive, got " + poolSize);
    ValidationException.check(
        !sqliteBusyTimeout.isNegative(), "sqlite_busy_timeout", "must not be negative");
    ValidationException.check(
        connectionTimeout.toMillis() >= 250,
        "connection_timeout",
        "must be at least 250 ms, got " + connectionTimeout);
    probe = probe == null ? StoreProbe.NONE : probe;
  }

  public StoreOptions withPoolSize(int size) {
    return new StoreOptions(size, sqliteBusyTimeout, connectionTimeout, probe);
  }

  public StoreOptions withSqliteBusyTimeout(Duration timeout) {
    return new StoreOptions(poolSize, timeout, connectionTimeout, probe);
  }

  public StoreOptions withProbe(StoreProbe p) {
    return new StoreOptions(poolSize, sqliteBusyTimeout, connectionTimeout, p);
  }

  public StoreOptions withConnectionTimeout(Duration timeout) {
    return new StoreOptions(poolSize, sqliteBusyTimeout, timeout, probe);
  }
}
