package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
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
   * Writers checkpoint only past the store's backstop (not at SQLite's default of 1,000 pages), and
   * writes that keep the log under it (about 7 MB of them, past the background checkpoint's 1,000
   * pages) still reach the database file: only the background checkpoint can have copied them.
   */
  @Test
  void theLogReachesTheDatabaseFileWithoutAWriterCheckpointing() throws Exception {
    Path file = dir.resolve(StoreLocation.DATABASE_FILE);
    Path wal = dir.resolve(StoreLocation.DATABASE_FILE + "-wal");
    try (Store store = Stores.open(StoreLocation.dataDir(dir))) {
      try (Connection c = store.dataSource().orElseThrow().getConnection();
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("PRAGMA wal_autocheckpoint")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(SqliteCheckpointer.WRITER_CHECKPOINT_PAGES);
      }
      long before = Files.size(file);
      Lister lister = store.frontier().listerGetOrCreate("forge", "", null, NOW);
      for (int batch = 0; batch < 20; batch++) {
        List<ListedOrigin> origins = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          origins.add(
              ListedOrigin.of(lister.id(), "https://example.org/" + batch + "/" + i, "git"));
        }
        store.frontier().originRecord(origins, NOW);
      }
      assertThat(Files.size(wal) / 4096)
          .as("log pages written")
          .isLessThan(SqliteCheckpointer.WRITER_CHECKPOINT_PAGES);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (Files.size(file) < before + MEGABYTE && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(Files.size(file)).as("database file size").isGreaterThan(before + MEGABYTE);
    }
  }

  /**
   * A small log stays until it is worth copying: a checkpoint of the whole log would make the next
   * commit start the log over and sync its header, so an idle store's next task would wait for a
   * disk sync. A write, a pause of several checkpoint intervals, another write: the log still holds
   * both, and the look at the log counts what a checkpoint of it copies.
   */
  @Test
  void aSmallLogIsNotCopiedBackBetweenWrites() throws Exception {
    try (Store store = Stores.open(StoreLocation.dataDir(dir));
        Connection c = store.dataSource().orElseThrow().getConnection();
        Statement st = c.createStatement()) {
      Lister lister = store.frontier().listerGetOrCreate("forge", "", null, NOW);
      store.frontier().originRecord(List.of(ListedOrigin.of(lister.id(), "https://a", "git")), NOW);
      int afterFirst = SqliteCheckpointer.pagesNotCopied(st);
      Thread.sleep(10 * SqliteCheckpointer.INTERVAL_MS);
      store.frontier().originRecord(List.of(ListedOrigin.of(lister.id(), "https://b", "git")), NOW);
      int afterSecond = SqliteCheckpointer.pagesNotCopied(st);
      assertThat(afterFirst).isPositive().isLessThan(SqliteCheckpointer.CHECKPOINT_PAGES);
      assertThat(afterSecond).as("pages after the pause").isGreaterThan(afterFirst);
      try (ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(2)).as("frames in the log").isEqualTo(afterSecond);
      }
      assertThat(SqliteCheckpointer.pagesNotCopied(st)).isZero();
    }
  }

  @Test
  void aDatabaseNotInWalModeSaysCheckpoint() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("plain.db"));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (x)");
      assertThat(SqliteCheckpointer.pagesNotCopied(st)).isEqualTo(Integer.MAX_VALUE);
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
