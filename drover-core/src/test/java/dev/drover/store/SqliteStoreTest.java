package dev.drover.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on SQLite, in a temporary data directory per test. */
class SqliteStoreTest extends StoreContractTest {
  @TempDir Path dataDir;

  @Override
  StoreLocation freshLocation() {
    return StoreLocation.dataDir(dataDir.resolve("data"));
  }
}
