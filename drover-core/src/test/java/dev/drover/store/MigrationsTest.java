package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.testing.TestPostgres;
import java.net.URISyntaxException;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
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
    StoreLocation empty = freshLocation(dialect, dir);
    Stores.open(empty).close();
    String url = jdbcUrl(empty);
    Set<Integer> applied = new HashSet<>();
    firstColumn(
            url, "SELECT version FROM flyway_schema_history WHERE version IS NOT NULL AND success")
        .forEach(v -> applied.add(Integer.parseInt(v)));
    assertThat(applied).isEqualTo(versionsIn(dialect));
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(Migrations.appliedVersion(c)).hasValue(Migrations.LATEST);
    }
  }

  /**
   * V018 starts the origins whose failed or not-found visit is at most 31 days old out of the grab
   * indexes (cooling_since), and leaves older ones and other statuses in: the first grab after the
   * upgrade would otherwise put back every origin whose visit ever failed, in one transaction.
   */
  @ParameterizedTest
  @EnumSource(Dialect.class)
  void v18CoolsOnlyTheOriginsWhoseFailedVisitIsRecent(Dialect dialect, @TempDir Path dir)
      throws Exception {
    StoreLocation location = freshLocation(dialect, dir);
    String url = migratedTo(dialect, location, dir, "17");
    String day = dialect == Dialect.SQLITE ? "86400000" : "interval '1 day'";
    String now = dialect == Dialect.SQLITE ? "(unixepoch('now') * 1000)" : "now()";
    String lister = dialect == Dialect.SQLITE ? "'l1'" : "'00000000-0000-0000-0000-000000000001'";
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO lister (id, name, instance_name, created, updated) VALUES ("
              + lister
              + ", 'github', '', "
              + now
              + ", "
              + now
              + ")");
      for (String[] row :
          new String[][] {
            {"failed-yesterday", "'failed'", "1"},
            {"not-found-30-days-ago", "'not_found'", "30"},
            {"failed-40-days-ago", "'failed'", "40"},
            {"successful-yesterday", "'successful'", "1"}
          }) {
        s.execute(
            "INSERT INTO listed_origin (lister_id, url, visit_type, enabled, first_seen, last_seen,"
                + " last_visit, last_visit_status) VALUES ("
                + lister
                + ", '"
                + row[0]
                + "', 'git', true, "
                + now
                + ", "
                + now
                + ", "
                + now
                + " - "
                + row[2]
                + " * "
                + day
                + ", "
                + row[1]
                + ")");
      }
    }
    Stores.open(location).close();
    assertThat(firstColumn(url, "SELECT url FROM listed_origin WHERE cooling_since = last_visit"))
        .containsExactlyInAnyOrder("failed-yesterday", "not-found-30-days-ago");
  }

  /**
   * V28 (PostgreSQL) and V29 (SQLite) move a listed url's stats into every lister's row of it, the
   * stats row winning over a mirror that differs, and leave an unlisted url's stats where they are.
   * The store reads the same stats afterwards.
   */
  @ParameterizedTest
  @EnumSource(Dialect.class)
  void v28AndV29KeepEveryUrlsStatsAsTheyWere(Dialect dialect, @TempDir Path dir) throws Exception {
    StoreLocation location = freshLocation(dialect, dir);
    String url = migratedTo(dialect, location, dir, "27");
    boolean sqlite = dialect == Dialect.SQLITE;
    String scheduled = sqlite ? "1780000000000" : "to_timestamp(1780000000)";
    List<String> listers =
        sqlite
            ? List.of("'l1'", "'l2'")
            : List.of(
                "'00000000-0000-0000-0000-000000000001'", "'00000000-0000-0000-0000-000000000002'");
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String lister : listers) {
        s.execute(
            "INSERT INTO lister (id, name, instance_name, created, updated) VALUES ("
                + lister
                + ", "
                + lister.replace("-", "")
                + ", '', "
                + scheduled
                + ", "
                + scheduled
                + ")");
        // The mirror was left behind (no last_scheduled): the stats row is the truth.
        s.execute(
            "INSERT INTO listed_origin (lister_id, url, visit_type, enabled, first_seen, last_seen)"
                + " VALUES ("
                + lister
                + ", 'listed', 'git', true, "
                + scheduled
                + ", "
                + scheduled
                + ")");
      }
      for (String statsUrl : List.of("listed", "unlisted")) {
        s.execute(
            "INSERT INTO origin_visit_stats (url, visit_type, last_scheduled,"
                + " next_position_offset, successive_visits) VALUES ('"
                + statsUrl
                + "', 'git', "
                + scheduled
                + ", 6, 3)");
      }
    }
    try (Store store = Stores.open(location)) {
      OriginVisitStats expected =
          OriginVisitStats.initial("listed", "git")
              .withLastScheduled(Instant.ofEpochSecond(1_780_000_000L))
              .withQueue(null, 6)
              .withSuccessiveVisits(3);
      assertThat(
              store
                  .frontier()
                  .visitStatsGet(
                      List.of(new OriginKey("listed", "git"), new OriginKey("unlisted", "git"))))
          .containsExactly(
              expected,
              OriginVisitStats.initial("unlisted", "git")
                  .withLastScheduled(expected.lastScheduled())
                  .withQueue(null, 6)
                  .withSuccessiveVisits(3));
    }
    assertThat(firstColumn(url, "SELECT url FROM origin_visit_stats")).containsExactly("unlisted");
    assertThat(
            firstColumn(
                url,
                "SELECT url FROM listed_origin WHERE next_position_offset = 6"
                    + " AND successive_visits = 3 AND last_scheduled = "
                    + scheduled))
        .hasSize(2);
  }

  /** The JDBC url of {@code location}, its schema brought up to {@code version} only. */
  private static String migratedTo(
      Dialect dialect, StoreLocation location, Path dir, String version) throws Exception {
    String url = jdbcUrl(location);
    Files.createDirectories(dir.resolve("data"));
    Flyway.configure()
        .dataSource(url, null, null)
        .locations("classpath:" + dialect.migrations())
        .target(version)
        .load()
        .migrate();
    return url;
  }

  private static StoreLocation freshLocation(Dialect dialect, Path dir) throws Exception {
    return dialect == Dialect.SQLITE
        ? StoreLocation.dataDir(dir.resolve("data"))
        : StoreLocation.postgres(TestPostgres.freshUrl());
  }

  /** The first column of every row {@code query} returns, as text. */
  private static List<String> firstColumn(String url, String query) throws Exception {
    List<String> values = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rows = s.executeQuery(query)) {
      while (rows.next()) {
        values.add(rows.getString(1));
      }
    }
    return values;
  }

  private static String jdbcUrl(StoreLocation location) {
    return location.isSqlite()
        ? "jdbc:sqlite:" + location.dataDir().resolve(StoreLocation.DATABASE_FILE)
        : location.jdbcUrl();
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
