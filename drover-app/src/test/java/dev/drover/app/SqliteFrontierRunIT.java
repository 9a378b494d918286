package dev.drover.app;

import dev.drover.store.StoreLocation;
import java.util.List;

/** The frontier end to end on a SQLite data dir. */
class SqliteFrontierRunIT extends FrontierRunIT {
  @Override
  List<Object> dbOptions() {
    return List.of();
  }

  @Override
  StoreLocation location() {
    return StoreLocation.dataDir(tmp.resolve("data"));
  }
}
