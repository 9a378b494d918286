package dev.drover.app;

import dev.drover.store.StoreLocation;
import java.nio.file.Path;

class SqliteApiBadRequestIT extends ApiBadRequestIT {
  @Override
  StoreLocation location(Path dir) {
    return StoreLocation.dataDir(dir.resolve("data"));
  }
}
