package dev.drover.app;

import dev.drover.store.StoreLocation;
import dev.drover.testing.TestPostgres;
import java.util.List;

/** The frontier's commands on PostgreSQL. */
class PostgresFrontierCliIT extends FrontierCliIT {
  private String url;

  private String url() {
    if (url == null) {
      url = TestPostgres.freshUrl();
    }
    return url;
  }

  @Override
  List<Object> dbOptions() {
    return List.of("--db", url());
  }

  @Override
  StoreLocation location() {
    return StoreLocation.postgres(url());
  }
}
