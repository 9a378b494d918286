package dev.drover.store;

import dev.drover.testing.TestPostgres;

/** The store contract on PostgreSQL, in a new schema per test. */
class PostgresStoreTest extends StoreContractTest {
  @Override
  StoreLocation freshLocation() {
    return StoreLocation.postgres(TestPostgres.freshUrl());
  }
}
