package dev.drover.engine;

import dev.drover.store.StoreLocation;

class SqliteVisitSchedulerTest extends VisitSchedulerContractTest {
  @Override
  StoreLocation freshLocation() {
    return StoreLocation.dataDir(dir.resolve("data"));
  }
}
