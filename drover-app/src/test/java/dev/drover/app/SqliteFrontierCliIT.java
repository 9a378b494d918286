package dev.drover.app;

import dev.drover.store.StoreLocation;
import java.util.List;

/** The frontier's commands on a SQLite data dir. */
class SqliteFrontierCliIT extends FrontierCliIT {
  @Override
  List<Object> dbOptions() {
    return List.of();
  }

  @Override
  StoreLocation location() {
    return StoreLocation.dataDir(tmp.resolve("data"));
  }
}
