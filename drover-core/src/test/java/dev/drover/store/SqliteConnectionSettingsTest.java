package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How every pooled connection of an SQLite store reads the database file. */
class SqliteConnectionSettingsTest {
  @TempDir Path dir;

  /**
   * No memory map: SQLite drops a connection's map whenever another connection has written, and on
   * a VM with steal the remaps stalled creates 20-90 ms in their BEGIN (docs/benchmarks.md, "Five
   * rounds each"). The page cache of 64 MB per connection stays. Every connection the pool holds at
   * once is asked, not only the first.
   */
  @Test
  void everyConnectionReadsTheFileWithoutAMemoryMapAndWithItsOwnPageCache() throws Exception {
    try (Store store = Stores.open(StoreLocation.dataDir(dir), 4)) {
      DataSource pool = store.dataSource().orElseThrow();
      List<Connection> held = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          held.add(pool.getConnection());
        }
        for (Connection c : held) {
          assertThat(pragma(c, "mmap_size")).isZero();
          assertThat(pragma(c, "cache_size")).isEqualTo(-64 * 1024);
          assertThat(pragma(c, "temp_store")).as("temp_store: 2 is MEMORY").isEqualTo(2);
        }
      } finally {
        for (Connection c : held) {
          c.close();
        }
      }
    }
  }

  /**
   * A statement inside a transaction keeps the prior content of each page it changes, to undo
   * itself alone if it fails. By default SQLite moves that statement journal to a temporary file
   * once one statement's copies pass 64 KB, and keeps it there until the transaction ends. A
   * recording of 1,000 origins, a statement per origin, each changing a page of the table and one
   * of each of the six or seven indexes that hold the origin, then wrote about 30 KB per origin to
   * that file, four times what it wrote to the log (docs/benchmarks.md, "SQLite's statement
   * journal"). In memory, the recording thread writes little more than the log's pages.
   */
  @Test
  void aRecordingWritesNoCopyOfEachPageItChangesToATemporaryFile() throws Exception {
    Path counters = Path.of("/proc/thread-self/io");
    assumeTrue(Files.isReadable(counters), "needs Linux's per-thread write counters");
    int origins = 2_000;
    try (Store store = Stores.open(StoreLocation.dataDir(dir))) {
      FrontierStore frontier = store.frontier();
      Instant now = Instant.parse("2026-11-30T00:00:00Z");
      Lister lister = frontier.listerGetOrCreate("forge", "", null, now);
      List<ListedOrigin> batch = new ArrayList<>();
      for (int i = 0; i < origins; i++) {
        String url = "https://forge.example.org/" + Integer.toHexString(Integer.reverse(i));
        batch.add(
            ListedOrigin.of(lister.id(), url, "git")
                .withLastUpdate(now.minus(Duration.ofMinutes(i * 7919L % 100_000))));
      }
      long before = bytesWritten(counters);
      frontier.originRecord(batch, now);
      long written = bytesWritten(counters) - before;
      // With the journal in a file: 24 KB an origin here. In memory: the log's pages, 0.4 KB.
      assertThat(written).as("bytes this thread wrote").isLessThan(origins * 4096L);
    }
  }

  /** What this thread has written to files (and pipes) so far. */
  private static long bytesWritten(Path counters) throws Exception {
    for (String line : Files.readAllLines(counters)) {
      if (line.startsWith("wchar:")) {
        return Long.parseLong(line.substring("wchar:".length()).trim());
      }
    }
    throw new IllegalStateException("no wchar line in " + counters);
  }

  private static long pragma(Connection c, String name) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA " + name)) {
      assertThat(rs.next()).as(name).isTrue();
      return rs.getLong(1);
    }
  }
}
