package dev.drover.engine;

import dev.drover.store.StoreLocation;

class SqliteRunnerTest extends RunnerContractTest {
  @Override
  StoreLocation freshLocation() {
    return StoreLocation.dataDir(dir.resolve("data"));
  }
}
