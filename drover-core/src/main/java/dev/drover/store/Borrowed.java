package dev.drover.store;

import dev.drover.DroverException;
import dev.drover.ValidationException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What Drover learns from an application's pool before it uses it: which database it reaches (from
 * a connection's metadata) and, on PostgreSQL, whether its connections bind text as Drover's SQL
 * expects.
 *
 * @param postgres true on PostgreSQL, false on SQLite (Stores picks the dialect from it)
 * @param url the connection's JDBC URL as its driver reports it (no password)
 * @param location the same, as a location for messages and migrations
 */
record Borrowed(boolean postgres, String url, StoreLocation location) {
  private static final String SQLITE_PREFIX = "jdbc:sqlite:";

  static Borrowed inspect(DataSource source) {
    try (Connection c = source.getConnection()) {
      String product = c.getMetaData().getDatabaseProductName();
      String url = c.getMetaData().getURL();
      // Drover's reads and single writes rely on auto-commit; with it off they would never commit.
      ValidationException.check(
          c.getAutoCommit(),
          "datasource",
          "its connections start with auto-commit off; Drover needs it on (the JDBC default)");
      if ("PostgreSQL".equals(product)) {
        requireUntypedStrings(c);
        return new Borrowed(true, url, StoreLocation.postgres(url));
      }
      if ("SQLite".equals(product)) {
        String file = url.startsWith(SQLITE_PREFIX) ? url.substring(SQLITE_PREFIX.length()) : url;
        Path parent = Path.of(file).toAbsolutePath().getParent();
        return new Borrowed(false, url, StoreLocation.dataDir(parent));
      }
      throw new ValidationException(
          "datasource", "reaches " + product + "; Drover runs on PostgreSQL or SQLite");
    } catch (SQLException e) {
      throw new DroverException("cannot connect through the DataSource: " + e.getMessage(), e);
    }
  }

  /**
   * Drover binds JSON documents as text parameters into jsonb columns, which PostgreSQL accepts
   * only when the driver sends strings untyped ({@code stringtype=unspecified}, as Drover's own
   * pool sets). A pool without it would fail later, on the first task, with a type error; refuse it
   * now and say what to set.
   */
  private static void requireUntypedStrings(Connection c) {
    try (PreparedStatement s = c.prepareStatement("SELECT CAST('{}' AS jsonb) = ?")) {
      s.setString(1, "{}");
      s.executeQuery().close();
    } catch (SQLException e) {
      throw new ValidationException(
          "datasource",
          "its connections must send strings untyped: set the driver property"
              + " stringtype=unspecified (PGSimpleDataSource.setStringType(\"unspecified\"))");
    }
  }
}
