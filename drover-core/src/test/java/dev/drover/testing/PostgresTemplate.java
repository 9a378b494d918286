package dev.drover.testing;

import dev.drover.store.StoreLocation;
import dev.drover.store.Stores;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * PostgreSQL databases that start migrated: one template database is migrated from empty once per
 * test JVM, and each test gets {@code CREATE DATABASE ... TEMPLATE} of it. Every database is the
 * test's own, so a test may open several stores on it, and nothing has to be emptied between tests.
 *
 * <p>A copy costs about 45 ms (Flyway from empty: about 200 ms), so it happens on a background
 * thread: while a test runs, the database of the next one is made. Drops have a thread of their
 * own: {@code DROP DATABASE ... WITH (FORCE)} finds the closing test's sessions still exiting and
 * waits for them in steps of 100 ms, and a copy queued behind it made the contract suites wait
 * about a quarter of a second per test.
 *
 * <p>On a server where the test user may not create databases ({@code DROVER_TEST_PG_URL}), it
 * falls back to a new schema per test, migrated from empty.
 */
public final class PostgresTemplate {
  private static final long WAIT_SECONDS = 60;
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static final ExecutorService COPIES = daemonThread("postgres-template-copy");
  private static final ExecutorService DROPS = daemonThread("postgres-template-drop");
  private static String template;
  private static Future<String> next;
  private static boolean canCreateDatabases = true;

  private PostgresTemplate() {}

  /** A JDBC URL of a new database (or schema) of its own, migrated and empty. */
  public static synchronized String migratedUrl() {
    if (canCreateDatabases) {
      try {
        String url = next != null ? await(next) : copy(template());
        next = COPIES.submit(() -> copy(template));
        return url;
      } catch (SQLException e) {
        canCreateDatabases = false;
        next = null;
        System.err.println(
            "PostgresTemplate: cannot create databases ("
                + e.getMessage()
                + "); each test migrates a new schema instead");
      }
    }
    String url = TestPostgres.freshUrl();
    Stores.open(StoreLocation.postgres(url)).close();
    return url;
  }

  /**
   * Drops, in the background, a database {@link #migratedUrl()} created, closing any connection
   * still open to it.
   */
  public static void drop(String url) {
    String database = databaseOf(url);
    if (template == null || !database.startsWith(template + "_")) {
      return; // a schema of the fallback, or not ours
    }
    DROPS.submit(
        () -> {
          execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
          return null;
        });
  }

  private static ExecutorService daemonThread(String name) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  private static String template() throws SQLException {
    if (template == null) {
      String name =
          "drover_template_"
              + ProcessHandle.current().pid()
              + "_"
              + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
      executeOrThrow("CREATE DATABASE " + name);
      String url = withDatabase(TestPostgres.baseUrl(), name);
      Stores.open(StoreLocation.postgres(url)).close();
      template = name;
      if (TestPostgres.isExternal()) {
        Runtime.getRuntime().addShutdownHook(new Thread(PostgresTemplate::dropAll));
      }
    }
    return template;
  }

  /**
   * On a server that outlives the tests: the template and every copy still there (the spare, and
   * those of tests that did not drop theirs) go with the JVM.
   */
  private static void dropAll() {
    COPIES.shutdownNow();
    DROPS.shutdownNow();
    try (Connection c = DriverManager.getConnection(TestPostgres.baseUrl());
        Statement s = c.createStatement()) {
      List<String> copies = new ArrayList<>();
      try (ResultSet rows =
          s.executeQuery(
              "SELECT datname FROM pg_database WHERE datname LIKE '" + template + "\\_%'")) {
        while (rows.next()) {
          copies.add(rows.getString(1));
        }
      }
      for (String copy : copies) {
        s.execute("DROP DATABASE IF EXISTS " + copy + " WITH (FORCE)");
      }
      s.execute("DROP DATABASE IF EXISTS " + template + " WITH (FORCE)");
    } catch (SQLException e) {
      // The JVM is exiting; the databases are left for whoever manages the server.
    }
  }

  private static String copy(String template) throws SQLException {
    String name = template + "_" + DATABASES.incrementAndGet();
    // The template's last store has just closed: PostgreSQL waits a few seconds for its sessions
    // to end.
    executeOrThrow("CREATE DATABASE " + name + " TEMPLATE " + template);
    return withDatabase(TestPostgres.baseUrl(), name);
  }

  private static String await(Future<String> copy) throws SQLException {
    try {
      return copy.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql;
      }
      throw new IllegalStateException("cannot copy the template database", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "no copy of the template database in " + WAIT_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while copying the template database", e);
    }
  }

  /** {@code url} naming {@code database} instead of its own: jdbc:postgresql://HOST/DB?PARAMS. */
  static String withDatabase(String url, String database) {
    int host = url.indexOf("//") + 2;
    int query = url.indexOf('?', host);
    int end = query < 0 ? url.length() : query;
    int slash = url.indexOf('/', host);
    String server = slash < 0 || slash > end ? url.substring(0, end) : url.substring(0, slash);
    return server + "/" + database + url.substring(end);
  }

  private static String databaseOf(String url) {
    int host = url.indexOf("//") + 2;
    int query = url.indexOf('?', host);
    int end = query < 0 ? url.length() : query;
    int slash = url.indexOf('/', host);
    return slash < 0 || slash > end ? "" : url.substring(slash + 1, end);
  }

  private static void executeOrThrow(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(TestPostgres.baseUrl());
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static void execute(String sql) {
    try {
      executeOrThrow(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot run '" + sql + "' on the test server", e);
    }
  }
}
