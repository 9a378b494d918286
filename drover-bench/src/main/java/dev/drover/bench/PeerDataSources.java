package dev.drover.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.store.StoreLocation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Connection pools for the peers, set up the way Drover sets up its own (WAL, synchronous NORMAL
 * and a busy timeout on SQLite), so no system wins by a looser durability setting.
 */
final class PeerDataSources {
  private static final int SQLITE_BUSY_TIMEOUT_MS = 30_000;

  private PeerDataSources() {}

  /** A pool of {@code size} connections to {@code db}; SQLite lives in {@code <dir>/<file>}. */
  static HikariDataSource pool(BenchDb db, String sqliteFile, int size, String name) {
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName(name);
    hikari.setMaximumPoolSize(size);
    hikari.setMinimumIdle(1);
    if (db.kind() == Kind.SQLITE) {
      hikari.setDataSource(sqlite(db.dir().resolve(sqliteFile)));
    } else {
      hikari.setJdbcUrl(db.jdbcUrl());
    }
    return new HikariDataSource(hikari);
  }

  /**
   * Unpooled connections to the database Drover's store uses on {@code db}: PostgreSQL by its URL,
   * SQLite on Drover's file with the settings above.
   */
  static DataSource direct(BenchDb db) {
    if (db.kind() == Kind.SQLITE) {
      return sqlite(db.dir().resolve(StoreLocation.DATABASE_FILE));
    }
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setURL(db.jdbcUrl());
    return source;
  }

  static SQLiteDataSource sqlite(Path file) {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout(SQLITE_BUSY_TIMEOUT_MS);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
    return source;
  }

  /** Runs a script of {@code ;}-separated statements (no semicolons inside statements). */
  static void runScript(DataSource ds, String script) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      for (String sql : script.split(";")) {
        if (!sql.isBlank()) {
          s.execute(sql);
        }
      }
    }
  }

  /** A text resource next to this class, e.g. {@code db-scheduler-postgres.sql}. */
  static String resource(String name) throws IOException {
    try (InputStream in = PeerDataSources.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new FileNotFoundException("resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Drops the lines that start with {@code --} (comments may contain semicolons). */
  static String withoutComments(String script) {
    return script
        .lines()
        .filter(l -> !l.stripLeading().startsWith("--"))
        .collect(Collectors.joining("\n"));
  }

  /** The single number a query returns. */
  static long count(DataSource ds, String query) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
