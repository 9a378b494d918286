package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write-ahead log of an SQLite store goes back into the database file off the writers. */
class SqliteCheckpointerTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final long MEGABYTE = 1 << 20;

  @TempDir Path dir;

  /**
   * Writes that fill more log pages than SQLite's default threshold (1,000, at which the writer
   * would have checkpointed in its own commit) and fewer than the store's backstop: only the
   * background checkpoint can have copied them (about 3.5 MB) into the database file.
   */
  @Test
  void theLogReachesTheDatabaseFileWithoutAWriterCheckpointing() throws Exception {
    Path file = dir.resolve(StoreLocation.DATABASE_FILE);
    Path wal = dir.resolve(StoreLocation.DATABASE_FILE + "-wal");
    try (Store store = Stores.open(StoreLocation.dataDir(dir))) {
      long before = Files.size(file);
      Lister lister = store.frontier().listerGetOrCreate("forge", "", null, NOW);
      for (int batch = 0; batch < 10; batch++) {
        List<ListedOrigin> origins = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          origins.add(
              ListedOrigin.of(lister.id(), "https://example.org/" + batch + "/" + i, "git"));
        }
        store.frontier().originRecord(origins, NOW);
      }
      assertThat(Files.size(wal) / 4096)
          .as("log pages written")
          .isBetween(1_000L + 1, (long) SqliteCheckpointer.WRITER_CHECKPOINT_PAGES - 1);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (Files.size(file) < before + MEGABYTE && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(Files.size(file)).as("database file size").isGreaterThan(before + MEGABYTE);
    }
  }

  @Test
  void closingTheStoreStopsItsCheckpointThread() {
    Set<Thread> before = checkpointThreads();
    Store store = Stores.open(StoreLocation.dataDir(dir));
    Set<Thread> started = checkpointThreads();
    started.removeAll(before);
    assertThat(started).hasSize(1);
    store.close();
    assertThat(started.iterator().next().isAlive()).isFalse();
  }

  /** Other tests of this JVM may have stores open; each has a thread of its own. */
  private static Set<Thread> checkpointThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("drover-sqlite-checkpoint") && t.isAlive())
        .collect(Collectors.toCollection(HashSet::new));
  }
}
