package dev.drover.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL for tests: the server named by {@code DROVER_TEST_PG_URL} if set, otherwise one
 * embedded PostgreSQL started once per test JVM. Each call to {@link #freshUrl()} creates a new
 * empty schema, so tests never see each other's rows; a test that wants one already migrated takes
 * {@link PostgresTemplate#migratedUrl()} (or {@link Databases}).
 */
public final class TestPostgres {
  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static String baseUrl;

  private TestPostgres() {}

  /** A JDBC URL whose default schema is new and empty. */
  public static synchronized String freshUrl() {
    String base = baseUrl();
    String schema = "t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    try (Connection c = DriverManager.getConnection(base);
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create test schema on " + base, e);
    }
    return base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  /** True when the tests run on the server named by {@code DROVER_TEST_PG_URL}. */
  static boolean isExternal() {
    String external = System.getenv("DROVER_TEST_PG_URL");
    return external != null && !external.isBlank();
  }

  /** The URL of the server's own database, which tests never write to. */
  static synchronized String baseUrl() {
    if (baseUrl == null) {
      String external = System.getenv("DROVER_TEST_PG_URL");
      baseUrl = external != null && !external.isBlank() ? external : startEmbedded();
    }
    return baseUrl;
  }

  private static String startEmbedded() {
    try {
      EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      pg.close();
                    } catch (IOException e) {
                      // the JVM is exiting; nothing more to do
                    }
                  }));
      return pg.getJdbcUrl("postgres", "postgres");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
    }
  }
}
