package dev.drover.app;

import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** {@link CrashIT} on a SQLite data dir. */
@EnabledOnOs(OS.LINUX) // see CrashIT
class SqliteCrashIT extends CrashIT {
  @Test
  void sqliteLosesNothingAndNeverOverlapsWhenTheRunnerIsKilled() throws Exception {
    Path data = tmp.resolve("data");
    crashAndRecover("sqlite", StoreLocation.dataDir(data), List.of("--data-dir", data));
  }
}
