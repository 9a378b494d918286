package dev.drover.store;

import dev.drover.testing.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;

/** The store contract on PostgreSQL, in a new schema per test. */
class PostgresStoreTest extends StoreContractTest {
  @Override
  StoreLocation freshLocation() {
    return StoreLocation.postgres(TestPostgres.freshUrl());
  }

  @Override
  Connection connect() throws Exception {
    return DriverManager.getConnection(location.jdbcUrl());
  }
}
