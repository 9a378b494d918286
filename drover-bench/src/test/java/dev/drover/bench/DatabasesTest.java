package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.model.TaskType;
import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a run's databases live, and that a temporary run leaves none of them behind. */
class DatabasesTest {
  @Test
  void aTemporaryRunDeletesItsDirectoryAndEveryDatabaseInIt() throws Exception {
    Path work;
    Path file;
    try (Databases databases = Databases.temporary("drover-databases-test", Map.of())) {
      work = databases.workDir();
      file = storeWithAType(databases);
      assertThat(file).isNotEmptyFile();
    }
    assertThat(work).doesNotExist();
  }

  @Test
  void aRunInAGivenDirectoryLeavesItsDatabasesThere(@TempDir Path dir) throws Exception {
    Path file;
    try (Databases databases = new Databases(dir, Map.of())) {
      file = storeWithAType(databases);
    }
    assertThat(file).isNotEmptyFile();
  }

  /** A fresh SQLite store with one task type in it, closed; its database file. */
  private static Path storeWithAType(Databases databases) throws Exception {
    BenchDb db = databases.fresh(Kind.SQLITE, "kept");
    try (Drover drover = Drover.open(db.droverLocation())) {
      drover.taskTypeCreate(TaskType.builder("t").description("a type").build());
    }
    return db.dir().resolve(StoreLocation.DATABASE_FILE);
  }
}
