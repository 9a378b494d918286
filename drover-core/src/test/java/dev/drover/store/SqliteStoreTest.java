package dev.drover.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on SQLite, in a temporary data directory per test. */
class SqliteStoreTest extends StoreContractTest {
  @TempDir Path dataDir;
  private int opened;

  @Override
  StoreLocation freshLocation() {
    return StoreLocation.dataDir(dataDir.resolve("data" + ++opened));
  }

  @Override
  Connection connect() throws Exception {
    return DriverManager.getConnection("jdbc:sqlite:" + location.dataDir().resolve(StoreLocation.DATABASE_FILE));
  }
}
