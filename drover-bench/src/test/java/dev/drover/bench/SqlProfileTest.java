package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WAL profile reads what the embedded PostgreSQL logged, by kind of record. */
class SqlProfileTest {
  @Test
  void walByRecordTypeCountsTheRecordsOfWhatWasWritten(@TempDir Path work) throws Exception {
    try (Databases databases = new Databases(work, Map.of())) {
      BenchDb db = databases.fresh(Kind.POSTGRES, "wal");
      try (Connection c = DriverManager.getConnection(db.jdbcUrl());
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id int)");
        // Created here, so that its own catalog rows are written before the range read below.
        s.execute("CREATE EXTENSION pg_walinspect");
        String from = SqlProfile.walPosition(db.jdbcUrl());
        for (int i = 0; i < 300; i++) {
          s.execute("INSERT INTO t VALUES (" + i + ")");
        }
        String to = SqlProfile.walPosition(db.jdbcUrl());
        List<Map<String, Object>> kinds = SqlProfile.walByRecordType(db.jdbcUrl(), from, 20);
        // A page's first insert is logged as Heap/INSERT+INIT, the others as Heap/INSERT.
        List<Map<String, Object>> inserts =
            kinds.stream().filter(k -> ((String) k.get("kind")).startsWith("Heap/INSERT")).toList();
        assertThat(inserts.stream().mapToLong(k -> (Long) k.get("count")).sum())
            .isGreaterThanOrEqualTo(300L);
        // The totals between the two positions hold at least the inserts' records.
        long[] bytes = SqlProfile.walBytesBetween(db.jdbcUrl(), from, to);
        assertThat(bytes[0])
            .isGreaterThanOrEqualTo(
                inserts.stream().mapToLong(k -> (Long) k.get("record_bytes")).sum());
      }
    }
  }

  @Test
  void withoutAStartingPointThereIsNothingToRead() throws Exception {
    assertThat(SqlProfile.walByRecordType("jdbc:postgresql://nowhere/none", null, 5)).isEmpty();
    assertThat(SqlProfile.walBytesBetween("jdbc:postgresql://nowhere/none", null, "0/0")).isNull();
  }
}
