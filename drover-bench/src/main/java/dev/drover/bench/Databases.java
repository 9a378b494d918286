package dev.drover.bench;

import dev.drover.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The databases of one bench run, which starts its own: one embedded PostgreSQL for the whole run,
 * started on first use, with a new database for every system and workload; and a new SQLite
 * directory every time. So each measurement starts from an empty schema.
 */
final class Databases implements AutoCloseable {
  /** The databases a system can run on. */
  enum Kind {
    SQLITE,
    POSTGRES;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Kind parse(String text) {
      for (Kind k : values()) {
        if (k.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
      throw new IllegalArgumentException(
          "unknown database '" + text + "' (expected sqlite or postgres)");
    }
  }

  /**
   * A fresh, empty database.
   *
   * @param kind which database
   * @param dir an empty directory of its own: the SQLite data directory, and scratch space for both
   * @param jdbcUrl the PostgreSQL URL (user and database in it), or null for SQLite
   */
  record BenchDb(Kind kind, Path dir, String jdbcUrl) {
    /** Where Drover's store on this database is: a data dir on SQLite, the URL on PostgreSQL. */
    StoreLocation droverLocation() {
      return kind == Kind.SQLITE ? StoreLocation.dataDir(dir) : StoreLocation.postgres(jdbcUrl);
    }
  }

  private final Path workDir;
  private final boolean ownsWorkDir;
  private final Map<String, String> serverSettings;
  private EmbeddedPostgres postgres;
  private int created;

  /**
   * {@code serverSettings}: more settings for the PostgreSQL server, as {@link #serverSettings}.
   */
  Databases(Path workDir, Map<String, String> serverSettings) {
    this(workDir, false, serverSettings);
  }

  private Databases(Path workDir, boolean ownsWorkDir, Map<String, String> serverSettings) {
    this.workDir = workDir;
    this.ownsWorkDir = ownsWorkDir;
    this.serverSettings = serverSettings;
  }

  /**
   * Databases in a new directory under the system's temporary directory, named {@code prefix} and a
   * number, which {@link #close} deletes with everything in it: a run leaves nothing behind.
   */
  static Databases temporary(String prefix, Map<String, String> serverSettings) throws IOException {
    return new Databases(Files.createTempDirectory(prefix), true, serverSettings);
  }

  /** The directory that holds every database of this run. */
  Path workDir() {
    return workDir;
  }

  /** A new empty database of {@code kind}, named after {@code label} for whoever looks inside. */
  BenchDb fresh(Kind kind, String label) throws IOException, SQLException {
    String name =
        (label + "_" + ++created).replaceAll("[^A-Za-z0-9_]", "_").toLowerCase(Locale.ROOT);
    Path dir = Files.createDirectories(workDir.resolve(name));
    if (kind == Kind.SQLITE) {
      return new BenchDb(kind, dir, null);
    }
    try (Connection c = postgres().getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return new BenchDb(kind, dir, postgres().getJdbcUrl("postgres", name));
  }

  /**
   * Another fresh database next to {@code db}, for a workload that needs several empty ones: a
   * subdirectory for SQLite, a new database on the same server for PostgreSQL.
   */
  static BenchDb sibling(BenchDb db, String suffix) throws IOException, SQLException {
    Path dir = Files.createDirectories(db.dir().resolve(suffix));
    if (db.kind() == Kind.SQLITE) {
      return new BenchDb(db.kind(), dir, null);
    }
    try (Connection c = DriverManager.getConnection(db.jdbcUrl());
        Statement s = c.createStatement()) {
      String name = firstValue(c, "SELECT current_database()");
      String sibling =
          name + "_" + suffix.replaceAll("[^A-Za-z0-9_]", "_").toLowerCase(Locale.ROOT);
      s.execute("CREATE DATABASE " + sibling);
      return new BenchDb(
          db.kind(), dir, db.jdbcUrl().replace("/" + name + "?", "/" + sibling + "?"));
    }
  }

  /**
   * Drops a PostgreSQL sibling of {@code db} that is done with, so that nothing (autovacuum) works
   * on it while the next phase is measured; a SQLite sibling's files are left, idle.
   */
  static void dropSibling(BenchDb db, BenchDb sibling) throws SQLException {
    if (sibling.kind() != Kind.POSTGRES) {
      return;
    }
    String name;
    try (Connection c = DriverManager.getConnection(sibling.jdbcUrl())) {
      name = firstValue(c, "SELECT current_database()");
    }
    try (Connection c = DriverManager.getConnection(db.jdbcUrl());
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE " + name + " WITH (FORCE)");
    }
  }

  /** The database's name and version, e.g. "PostgreSQL 18.6". */
  String version(Kind kind) throws IOException, SQLException {
    if (kind == Kind.POSTGRES) {
      try (Connection c = postgres().getPostgresDatabase().getConnection()) {
        // "PostgreSQL 18.6 on x86_64-pc-linux-gnu, compiled by ...": the part before " on ".
        return firstValue(c, "SELECT version()").split(" on ", 2)[0];
      }
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
      return "SQLite " + firstValue(c, "SELECT sqlite_version()");
    }
  }

  private static String firstValue(Connection c, String query) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private EmbeddedPostgres postgres() throws IOException {
    if (postgres == null) {
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              // zonky turns synchronous_commit off by default; PostgreSQL's own default is on, and
              // that is what a deployment runs with, so every commit here waits for its WAL flush
              // too.
              .setServerConfig("synchronous_commit", "on")
              // PostgreSQL's defaults (128 MB of buffers, a checkpoint every 1 GB of WAL) suit a
              // laptop; a deployment sizes them to its machine and data. Buffers: a quarter of the
              // memory, PostgreSQL's documented starting point for a dedicated server (runtime
              // configuration, "shared_buffers"), at least 1 GB. A 10M-origin frontier is 8.4 GB;
              // with 1 GB of buffers every grab read its url index pages from the OS.
              .setServerConfig("shared_buffers", sharedBuffersMb() + "MB")
              // A checkpoint at most every 30 minutes or 16 GB of WAL: after each, the first change
              // to a page logs the whole page, and a large frontier's grabs and stats writes touch
              // pages all over it (at 10M origins, 4 GB meant a checkpoint every few minutes and
              // 13 MB of WAL per grab of 1,000, most of it whole pages).
              .setServerConfig("max_wal_size", "16GB")
              .setServerConfig("checkpoint_timeout", "30min");
      if (SqlProfile.ENABLED) {
        builder.setServerConfig("shared_preload_libraries", "pg_stat_statements");
      }
      serverSettings.forEach(builder::setServerConfig);
      postgres = builder.start();
    }
    return postgres;
  }

  /**
   * The system property of extra server settings, for profiling: {@code name=value} pairs separated
   * by commas, such as {@code log_min_duration_statement=0,track_wal_io_timing=on}.
   */
  static final String SERVER_SETTINGS = "drover.bench.pgConfig";

  /** The settings of {@link #SERVER_SETTINGS}' value {@code pairs}, in order. */
  static Map<String, String> serverSettings(String pairs) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String pair : pairs.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            SERVER_SETTINGS + ": '" + pair.trim() + "' is not name=value");
      }
      settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return settings;
  }

  /** A quarter of the machine's memory, and at least 1 GB, in MB. */
  static long sharedBuffersMb() {
    long total =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    return Math.max(1024, total / 4 / (1024 * 1024));
  }

  @Override
  public void close() throws IOException {
    try {
      if (postgres != null) {
        postgres.close();
      }
    } finally {
      if (ownsWorkDir) {
        deleteTree(workDir);
      }
    }
  }

  /**
   * Deletes {@code dir} and everything in it; a file that cannot be deleted is reported, not
   * thrown.
   */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("drover-bench: could not delete " + dir + ": " + e);
    }
  }
}
