package dev.drover.engine;

import dev.drover.store.StoreLocation;
import dev.drover.testing.TestPostgres;

class PostgresVisitSchedulerTest extends VisitSchedulerContractTest {
  @Override
  StoreLocation freshLocation() {
    return StoreLocation.postgres(TestPostgres.freshUrl());
  }
}
