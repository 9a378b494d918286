package dev.drover.engine;

import dev.drover.store.StoreLocation;
import dev.drover.testing.TestPostgres;

class PostgresRunnerTest extends RunnerContractTest {
  @Override
  StoreLocation freshLocation() {
    return StoreLocation.postgres(TestPostgres.freshUrl());
  }
}
