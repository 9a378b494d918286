package dev.drover.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.drover.DroverException;
import dev.drover.ValidationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Opens a {@link Store}: connects, migrates the schema, and refuses a schema newer than this
 * program.
 */
public final class Stores {
  private Stores() {}

  /** Opens the store at {@code location}, creating and migrating it as needed. */
  public static Store open(StoreLocation location) {
    return open(location, StoreOptions.DEFAULT);
  }

  /** As {@link #open(StoreLocation)}, with at most {@code poolSize} connections. */
  public static Store open(StoreLocation location, int poolSize) {
    return open(location, StoreOptions.DEFAULT.withPoolSize(poolSize));
  }

  /** As {@link #open(StoreLocation)}, opened as {@code options} say. */
  public static Store open(StoreLocation location, StoreOptions options) {
    return open(location, options, List.of());
  }

  /** As {@link #open(StoreLocation, StoreOptions)}, calling {@code hooks} too when runs end. */
  static Store open(StoreLocation location, StoreOptions options, List<RunEndHook> hooks) {
    int poolSize = options.poolSize();
    // The one place that asks which database this is; the store's code then calls the dialect.
    SqliteStatementCache statements = location.isSqlite() ? new SqliteStatementCache() : null;
    SqliteWriteGate gate =
        location.isSqlite()
            ? SqliteWriteGate.of(
                location.dataDir().resolve(StoreLocation.DATABASE_FILE),
                options.sqliteBusyTimeout())
            : SqliteWriteGate.NONE;
    DialectSql dialect =
        location.isSqlite()
            ? new SqliteSql(new SqlFiles(Dialect.SQLITE), statements, options.probe(), gate)
            : new PostgresSql(new SqlFiles(Dialect.POSTGRESQL));
    HikariDataSource pool =
        location.isSqlite()
            ? sqlitePool(location.dataDir(), poolSize, options)
            : postgresPool(location, poolSize, options);
    SqliteCheckpointer checkpointer = null;
    try {
      Migrations.migrate(pool, dialect.dialect(), location);
      if (location.isSqlite()) {
        checkpointer = SqliteCheckpointer.start(sqliteUrl(location.dataDir()));
      }
      Jdbi jdbi = configured(Jdbi.create((DataSource) pool), dialect);
      if (location.isSqlite()) {
        jdbi.setStatementBuilderFactory(statements);
        gate.install(jdbi);
      }
      String database =
          location.isSqlite()
              ? location.dataDir().toAbsolutePath().normalize().toString()
              : location.jdbcUrl();
      String url = location.isSqlite() ? null : location.jdbcUrl();
      return new JdbiStore(
          jdbi,
          dialect,
          checkpointer == null ? pool : new CheckpointedPool(pool, checkpointer),
          database,
          location.describe(),
          url == null
              ? null
              : (channel, onNotify) -> PostgresListener.start(url, channel, onNotify),
          options.probe(),
          hooks);
    } catch (RuntimeException e) {
      if (checkpointer != null) {
        checkpointer.close();
      }
      pool.close();
      throw e;
    }
  }

  /**
   * Opens a store on the application's own pool: the database (PostgreSQL or SQLite) is read from a
   * connection's metadata and migrated as {@link #open(StoreLocation)} would. Closing the store
   * closes nothing of {@code source}; on PostgreSQL one of its connections stays borrowed to listen
   * for other processes' new work while a runner waits.
   */
  public static Store open(DataSource source) {
    return open(source, StoreOptions.DEFAULT);
  }

  /**
   * As {@link #open(DataSource)}, with {@code options}' probe (the pool settings are the app's).
   */
  public static Store open(DataSource source, StoreOptions options) {
    ValidationException.check(source != null, "datasource", "is missing");
    Borrowed borrowed = Borrowed.inspect(source);
    boolean postgres = borrowed.postgres();
    DialectSql dialect =
        postgres
            ? new PostgresSql(new SqlFiles(Dialect.POSTGRESQL))
            : new SqliteSql(
                new SqlFiles(Dialect.SQLITE), null, options.probe(), SqliteWriteGate.NONE);
    Migrations.migrate(source, dialect.dialect(), borrowed.location());
    Jdbi jdbi = configured(Jdbi.create(source), dialect);
    if (!postgres) {
      jdbi.installPlugin(new SqliteSession(options));
    }
    return new JdbiStore(
        jdbi,
        dialect,
        () -> {}, // the application's pool: closing the store must leave it open
        borrowed.url(),
        borrowed.location().describe(),
        postgres
            ? (channel, onNotify) ->
                PostgresListener.startBorrowed(source::getConnection, channel, onNotify)
            : null,
        options.probe(),
        List.of());
  }

  /**
   * {@code jdbi} set up as every store's, the one for lent connections included: each statement
   * parsed once per process, and instants bound as the dialect stores them.
   */
  static Jdbi configured(Jdbi jdbi, DialectSql dialect) {
    SharedParsing.install(jdbi);
    jdbi.registerArgument(new InstantArgumentFactory(dialect));
    return jdbi;
  }

  private static HikariDataSource sqlitePool(Path dataDir, int poolSize, StoreOptions options) {
    prepareDataDir(dataDir);
    SqliteNativeLibrary.prepare();
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout((int) options.sqliteBusyTimeout().toMillis());
    // Every write transaction takes the write lock at BEGIN, so two writers queue on the busy
    // timeout instead of one failing when it upgrades a read lock.
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    config.enforceForeignKeys(true);
    // SQLite's default page cache is 2 MB per connection: a frontier of a million origins (several
    // hundred MB of table and indexes) would then read most pages from the file for every index
    // write. Up to 64 MB of cache per connection keeps the hot pages in memory.
    config.setCacheSize(-64 * 1024);
    // No memory map of the file: SQLite drops a connection's map whenever another connection has
    // written, so at 100 creates a second the connections unmapped and mapped the file again about
    // 90 times a second. On a VM whose host takes its cores now and then, creates stalled 20-90 ms
    // in their BEGIN in about half of the sustained runs with the map, and in none without it
    // (docs/benchmarks.md, "Five rounds each", 2026-11-29); an unmap waits for every core to drop
    // the mapping, and a core the host has taken answers late.
    config.setPragma(SQLiteConfig.Pragma.MMAP_SIZE, "0");
    // A statement in a transaction keeps a copy of each page it changes, to undo itself alone.
    // Past 64 KB SQLite moves those copies to a temporary file for the rest of the transaction,
    // and a recording of 1,000 origins wrote about 30 KB per origin there, four times its log
    // (docs/benchmarks.md, "SQLite's statement journal"). In memory they cost a statement's
    // changed pages at most, and are dropped when it ends.
    config.setTempStore(SQLiteConfig.TempStore.MEMORY);
    // A SqliteCheckpointer copies the log back; writers do only past this backstop.
    config.setPragma(
        SQLiteConfig.Pragma.WAL_AUTOCHECKPOINT,
        Integer.toString(SqliteCheckpointer.WRITER_CHECKPOINT_PAGES));
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl(sqliteUrl(dataDir));
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName("drover-sqlite");
    hikari.setConnectionTimeout(options.connectionTimeout().toMillis());
    hikari.setDataSource(source);
    hikari.setMaximumPoolSize(poolSize);
    hikari.setMinimumIdle(1);
    try {
      return connect(hikari, dataDir.toString());
    } catch (DroverException e) {
      throw notADatabase(e, dataDir.resolve(StoreLocation.DATABASE_FILE)).orElseThrow(() -> e);
    }
  }

  /**
   * SQLite's answer for a file that is not a database (SQLITE_NOTADB), as an error that names it.
   *
   * <p>SQLite is asked, not the file read here: closing a file descriptor of the database drops
   * every POSIX lock this process holds on it, those of the connections it already has open to it
   * included (https://sqlite.org/howtocorrupt.html, section 2.2), and a process may open a second
   * store on a data dir whose first is open.
   */
  private static Optional<ValidationException> notADatabase(Throwable e, Path db) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLiteException s && s.getResultCode() == SQLiteErrorCode.SQLITE_NOTADB) {
        return Optional.of(
            new ValidationException(
                "data-dir", "'" + db + "' is not an SQLite database, so not a Drover store"));
      }
    }
    return Optional.empty();
  }

  /** An SQLite store's pool and its checkpoint thread, which closes first. */
  record CheckpointedPool(HikariDataSource pool, SqliteCheckpointer checkpointer)
      implements AutoCloseable {
    @Override
    public void close() {
      checkpointer.close();
      pool.close();
    }
  }

  private static String sqliteUrl(Path dataDir) {
    return "jdbc:sqlite:" + dataDir.resolve(StoreLocation.DATABASE_FILE).toAbsolutePath();
  }

  private static Path prepareDataDir(Path dataDir) {
    if (Files.exists(dataDir) && !Files.isDirectory(dataDir)) {
      throw new ValidationException("data-dir", "'" + dataDir + "' exists and is not a directory");
    }
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new ValidationException(
          "data-dir", "cannot create '" + dataDir + "': " + e.getMessage());
    }
    if (!Files.isReadable(dataDir) || !Files.isWritable(dataDir)) {
      throw new ValidationException("data-dir", "'" + dataDir + "' is not readable and writable");
    }
    Path db = dataDir.resolve(StoreLocation.DATABASE_FILE);
    if (Files.exists(db) && (!Files.isReadable(db) || !Files.isWritable(db))) {
      throw new ValidationException("data-dir", "'" + db + "' is not readable and writable");
    }
    if (Files.isDirectory(db)) {
      throw new ValidationException("data-dir", "'" + db + "' is a directory, not a database file");
    }
    return dataDir;
  }

  /** Seconds to connect to a PostgreSQL server and log in. */
  static final int POSTGRES_CONNECT_TIMEOUT_S = 10;

  /** Seconds any one read from a PostgreSQL server may take. */
  static final int POSTGRES_SOCKET_TIMEOUT_S = 600;

  private static HikariDataSource postgresPool(
      StoreLocation location, int poolSize, StoreOptions options) {
    HikariConfig hikari = new HikariConfig();
    hikari.setPoolName("drover-postgres");
    hikari.setConnectionTimeout(options.connectionTimeout().toMillis());
    hikari.setJdbcUrl(location.jdbcUrl());
    // Lets text parameters bind to jsonb columns without a cast in every query.
    hikari.addDataSourceProperty("stringtype", "unspecified");
    // A server that accepts connections but never answers must not hang a command: bound the
    // connect and the login, and any one read (a generous bound: no statement of Drover's waits
    // that long). Parameters in the URL take precedence; the driver reads only text values.
    hikari.addDataSourceProperty("connectTimeout", String.valueOf(POSTGRES_CONNECT_TIMEOUT_S));
    hikari.addDataSourceProperty("loginTimeout", String.valueOf(POSTGRES_CONNECT_TIMEOUT_S));
    hikari.addDataSourceProperty("socketTimeout", String.valueOf(POSTGRES_SOCKET_TIMEOUT_S));
    hikari.setMaximumPoolSize(poolSize);
    hikari.setMinimumIdle(1);
    return connect(hikari, location.describe());
  }

  private static HikariDataSource connect(HikariConfig config, String where) {
    try {
      return new HikariDataSource(config);
    } catch (HikariPool.PoolInitializationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new DroverException(
          "cannot open the database at " + where + ": " + cause.getMessage(), e);
    }
  }
}
