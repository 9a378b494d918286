package dev.drover.store;

import dev.drover.testing.Databases;
import java.sql.Connection;
import java.sql.DriverManager;

/** The store contract on SQLite, in a new data directory per test. */
class SqliteStoreTest extends StoreContractTest {
  SqliteStoreTest() {
    super(Databases.sqlite());
  }

  @Override
  Connection connect() throws Exception {
    return DriverManager.getConnection(
        "jdbc:sqlite:" + location.dataDir().resolve(StoreLocation.DATABASE_FILE));
  }
}
