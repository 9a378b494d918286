package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.testing.TestPostgres;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The migrations themselves. Most tests start from a copy of a database migrated once per JVM
 * ({@link dev.drover.testing.Databases}); this one migrates each dialect from empty.
 */
class MigrationsTest {
  private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.*\\.sql");

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void migratesAnEmptyDatabaseThroughEveryVersion(Dialect dialect, @TempDir Path dir)
      throws Exception {
    StoreLocation empty =
        dialect == Dialect.SQLITE
            ? StoreLocation.dataDir(dir.resolve("data"))
            : StoreLocation.postgres(TestPostgres.freshUrl());
    Stores.open(empty).close();
    String url =
        empty.isSqlite()
            ? "jdbc:sqlite:" + empty.dataDir().resolve(StoreLocation.DATABASE_FILE)
            : empty.jdbcUrl();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rows =
            s.executeQuery(
                "SELECT version FROM flyway_schema_history WHERE version IS NOT NULL AND success")) {
      Set<Integer> applied = new HashSet<>();
      while (rows.next()) {
        applied.add(Integer.parseInt(rows.getString(1)));
      }
      assertThat(applied).isEqualTo(versionsIn(dialect));
      assertThat(Migrations.appliedVersion(c)).hasValue(Migrations.LATEST);
    }
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void latestIsTheHighestMigrationShippedForEachDialect(Dialect dialect) throws Exception {
    assertThat(highestVersionIn(dialect)).isEqualTo(Migrations.LATEST);
  }

  private static int highestVersionIn(Dialect dialect) throws Exception {
    try (Stream<Path> files = Files.list(resourceDir(dialect.migrations()))) {
      return files
          .map(f -> VERSIONED.matcher(f.getFileName().toString()))
          .filter(Matcher::matches)
          .mapToInt(m -> Integer.parseInt(m.group(1)))
          .max()
          .orElseThrow();
    }
  }

  private static Set<Integer> versionsIn(Dialect dialect) throws Exception {
    try (Stream<Path> files = Files.list(resourceDir(dialect.migrations()))) {
      Set<Integer> versions = new HashSet<>();
      files
          .map(f -> VERSIONED.matcher(f.getFileName().toString()))
          .filter(Matcher::matches)
          .forEach(m -> versions.add(Integer.parseInt(m.group(1))));
      return versions;
    }
  }

  private static Path resourceDir(String name) throws URISyntaxException {
    return Path.of(MigrationsTest.class.getClassLoader().getResource(name).toURI());
  }
}
