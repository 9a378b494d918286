package dev.drover.app;

import dev.drover.store.StoreLocation;
import dev.drover.testing.TestPostgres;
import java.nio.file.Path;

class PostgresApiBadRequestIT extends ApiBadRequestIT {
  @Override
  StoreLocation location(Path dir) {
    return StoreLocation.postgres(TestPostgres.freshUrl());
  }
}
