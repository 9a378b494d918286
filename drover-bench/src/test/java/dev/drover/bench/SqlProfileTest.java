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
        String from = SqlProfile.walPosition(db.jdbcUrl());
        for (int i = 0; i < 300; i++) {
          s.execute("INSERT INTO t VALUES (" + i + ")");
        }
        List<Map<String, Object>> kinds = SqlProfile.walByRecordType(db.jdbcUrl(), from, 20);
        assertThat(kinds)
            .filteredOn(k -> "Heap/INSERT".equals(k.get("kind")))
            .singleElement()
            .satisfies(k -> assertThat((Long) k.get("count")).isGreaterThanOrEqualTo(300L));
      }
    }
  }

  @Test
  void withoutAStartingPointThereIsNothingToRead() throws Exception {
    assertThat(SqlProfile.walByRecordType("jdbc:postgresql://nowhere/none", null, 5)).isEmpty();
  }
}
