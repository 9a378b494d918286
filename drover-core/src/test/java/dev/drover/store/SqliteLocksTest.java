package dev.drover.store;

import static dev.drover.testing.SqliteLockProbe.DB_SHARED_FIRST;
import static dev.drover.testing.SqliteLockProbe.DB_SHARED_SIZE;
import static dev.drover.testing.SqliteLockProbe.SHM_DMS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.testing.SqliteLockProbe;
import dev.drover.testing.TestJvm;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store never drops the POSIX locks SQLite holds for it. Closing any file descriptor of a file
 * drops all of a process's locks on it, SQLite's too; another process then takes itself for the
 * only user, truncates the wal-index this one has mapped (SIGBUS here), or checkpoints and deletes
 * the log under it. Locks are looked at from another process, the only place they can be seen.
 */
class SqliteLocksTest {
  @TempDir Path dir;

  private Path db() {
    return dir.resolve(StoreLocation.DATABASE_FILE);
  }

  private Path shm() {
    return dir.resolve(StoreLocation.DATABASE_FILE + "-shm");
  }

  @Test
  void theCheckpointThreadsLookAtTheLogLeavesTheLocksInPlace() throws Exception {
    try (Store store = Stores.open(StoreLocation.dataDir(dir));
        Connection c = store.dataSource().orElseThrow().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (x)");
      s.execute("INSERT INTO t VALUES (1)");
      assertThat(SqliteCheckpointer.pagesNotCopied(s)).isPositive();
      // The store's own thread looks every INTERVAL_MS; give it several looks.
      Thread.sleep(5 * SqliteCheckpointer.INTERVAL_MS);
      assertStoreLocksHeld();
    }
  }

  @Test
  void aSecondStoreOnTheSameDataDirLeavesTheFirstsLocksInPlace() throws Exception {
    try (Store first = Stores.open(StoreLocation.dataDir(dir))) {
      first.dataSource().orElseThrow().getConnection().close();
      Stores.open(StoreLocation.dataDir(dir)).close();
      assertStoreLocksHeld();
    }
  }

  /** The probe sees what the store must never do: a file of SQLite's opened and closed here. */
  @Test
  void theProbeSeesLocksDroppedByAClose() throws Exception {
    try (Store store = Stores.open(StoreLocation.dataDir(dir))) {
      store.dataSource().orElseThrow().getConnection().close();
      assertThat(probe(shm(), SHM_DMS, 1)).isEqualTo("held");
      FileChannel.open(shm(), StandardOpenOption.READ).close();
      assertThat(probe(shm(), SHM_DMS, 1)).isEqualTo("free");
    }
  }

  /**
   * The wal-index's switch byte and the database's shared range, as every open store holds them.
   */
  private void assertStoreLocksHeld() throws IOException, InterruptedException {
    assertThat(probe(shm(), SHM_DMS, 1)).as("the wal-index's switch").isEqualTo("held");
    assertThat(probe(db(), DB_SHARED_FIRST, DB_SHARED_SIZE)).as("the database").isEqualTo("held");
  }

  private static String probe(Path file, long offset, long length)
      throws IOException, InterruptedException {
    Process p =
        TestJvm.start(
            SqliteLockProbe.class, file.toString(), Long.toString(offset), Long.toString(length));
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
