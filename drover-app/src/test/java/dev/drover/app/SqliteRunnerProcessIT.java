package dev.drover.app;

import dev.drover.store.StoreLocation;
import java.util.List;

/** Runner processes on a SQLite data dir. */
class SqliteRunnerProcessIT extends RunnerProcessIT {
  @Override
  List<Object> dbOptions() {
    return List.of();
  }

  @Override
  StoreLocation location() {
    return StoreLocation.dataDir(tmp.resolve("data"));
  }
}
