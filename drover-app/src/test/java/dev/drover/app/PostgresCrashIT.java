package dev.drover.app;

import dev.drover.store.StoreLocation;
import dev.drover.testing.TestPostgres;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** {@link CrashIT} on PostgreSQL. */
@EnabledOnOs(OS.LINUX) // see CrashIT
class PostgresCrashIT extends CrashIT {
  @Test
  void postgresLosesNothingAndNeverOverlapsWhenTheRunnerIsKilled() throws Exception {
    String url = TestPostgres.freshUrl();
    Path data = tmp.resolve("data");
    // The data dir still names the gate (host and data dir) on PostgreSQL.
    crashAndRecover(
        "postgres", StoreLocation.postgres(url), List.of("--db", url, "--data-dir", data));
  }
}
