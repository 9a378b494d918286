package dev.drover.testing;

import dev.drover.store.Dialect;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that gives a test databases of one dialect, each new, migrated and empty, and
 * removes them after the test: an SQLite data directory holding a copy of a template migrated once
 * per JVM ({@link SqliteTemplate}), or a PostgreSQL database copied from a template database
 * ({@link PostgresTemplate}). A store opened on one skips Flyway.
 *
 * <p>Register it on an instance field, so each test has its own:
 *
 * <pre>{@code
 * @RegisterExtension final Databases databases = Databases.postgres();
 *
 * @Test void something() {
 *   try (Store store = Stores.open(databases.fresh())) { ... }
 * }
 * }</pre>
 *
 * The abstract contracts ({@code StoreContractTest}, {@code RunnerContractTest}, ...) take one in
 * their constructor, so a subclass only says which database it runs on.
 */
public final class Databases implements AfterEachCallback {
  private final Dialect dialect;
  private final List<StoreLocation> created = new ArrayList<>();

  private Databases(Dialect dialect) {
    this.dialect = dialect;
  }

  public static Databases sqlite() {
    return new Databases(Dialect.SQLITE);
  }

  public static Databases postgres() {
    return new Databases(Dialect.POSTGRESQL);
  }

  public static Databases of(Dialect dialect) {
    return new Databases(dialect);
  }

  public Dialect dialect() {
    return dialect;
  }

  /** A new database of this dialect, migrated and empty, dropped after the test. */
  public synchronized StoreLocation fresh() {
    StoreLocation location =
        switch (dialect) {
          case SQLITE ->
              StoreLocation.dataDir(SqliteTemplate.copyInto(newDirectory().resolve("data")));
          case POSTGRESQL -> StoreLocation.postgres(PostgresTemplate.migratedUrl());
        };
    created.add(location);
    return location;
  }

  @Override
  public synchronized void afterEach(ExtensionContext context) {
    for (StoreLocation location : created) {
      if (location.isSqlite()) {
        TempDirs.delete(location.dataDir().getParent());
      } else {
        PostgresTemplate.drop(location.jdbcUrl());
      }
    }
    created.clear();
  }

  private static Path newDirectory() {
    try {
      return Files.createTempDirectory("drover-test");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
