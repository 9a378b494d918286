package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
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
        }
      } finally {
        for (Connection c : held) {
          c.close();
        }
      }
    }
  }

  private static long pragma(Connection c, String name) throws Exception {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA " + name)) {
      assertThat(rs.next()).as(name).isTrue();
      return rs.getLong(1);
    }
  }
}
