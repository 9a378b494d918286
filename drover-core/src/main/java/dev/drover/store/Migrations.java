package dev.drover.store;

import dev.drover.ValidationException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;

/** Brings a database's schema up to this program's version with the dialect's Flyway migrations. */
final class Migrations {
  /**
   * The highest migration version this build ships (the {@code V<n>__} files of each dialect; a
   * test keeps the two in step). A schema already at it skips Flyway entirely: loading and scanning
   * Flyway costs every command-line call about half a second.
   */
  static final int LATEST = 29;

  private Migrations() {}

  static void migrate(DataSource source, Dialect dialect, StoreLocation location) {
    try (Connection connection = source.getConnection()) {
      if (appliedVersion(connection).equals(OptionalInt.of(LATEST))) {
        return;
      }
      refuseForeignSchema(connection, location);
    } catch (SQLException e) {
      // Flyway will connect again and report what is wrong.
    }
    Flyway flyway =
        Flyway.configure()
            .dataSource(source)
            .locations("classpath:" + dialect.migrations())
            .loggers("slf4j")
            .load();
    MigrationInfo[] future =
        Arrays.stream(flyway.info().all())
            .filter(m -> m.getState() == MigrationState.FUTURE_SUCCESS)
            .toArray(MigrationInfo[]::new);
    if (future.length > 0) {
      // Flyway would ignore these; running old code on a newer schema could corrupt it.
      String newest = future[future.length - 1].getVersion().toString();
      throw new ValidationException(
          location.isSqlite() ? "data-dir" : "db",
          "the schema at "
              + location.describe()
              + " is at version "
              + newest
              + ", newer than this Drover understands; upgrade Drover");
    }
    flyway.migrate();
  }

  /**
   * Refuses a database that has tables but no Flyway history: it is not a Drover store (another
   * program's SQLite file, or a PostgreSQL schema in use), and migrating it would mix Drover's
   * tables into it. Flyway's own message ("non-empty schema ... baselineOnMigrate") names neither.
   */
  private static void refuseForeignSchema(Connection connection, StoreLocation location)
      throws SQLException {
    List<String> tables = new ArrayList<>();
    boolean history = false;
    try (ResultSet rows =
        connection
            .getMetaData()
            .getTables(null, connection.getSchema(), "%", new String[] {"TABLE"})) {
      while (rows.next()) {
        String name = rows.getString("TABLE_NAME");
        if (name.equalsIgnoreCase("flyway_schema_history")) {
          history = true;
        } else if (!name.startsWith("sqlite_")) {
          tables.add(name);
        }
      }
    }
    if (history || tables.isEmpty()) {
      return;
    }
    String shown =
        String.join(", ", tables.subList(0, Math.min(5, tables.size())))
            + (tables.size() > 5 ? ", ..." : "");
    String where =
        location.isSqlite()
            ? "'" + location.dataDir().resolve(StoreLocation.DATABASE_FILE) + "'"
            : location.describe();
    throw new ValidationException(
        location.isSqlite() ? "data-dir" : "db",
        where
            + " is not a Drover store: it has other tables ("
            + shown
            + ") and no Drover schema history; point "
            + (location.isSqlite() ? "--data-dir" : "--db")
            + " at a Drover store or an empty one");
  }

  /**
   * The schema's version if every migration recorded in Flyway's history succeeded, else empty (no
   * history table yet, a failed migration, or a version that is not a whole number): Flyway then
   * decides.
   */
  static OptionalInt appliedVersion(Connection connection) {
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL")) {
      int highest = -1;
      while (rows.next()) {
        if (!rows.getBoolean("success")) {
          return OptionalInt.empty();
        }
        highest = Math.max(highest, Integer.parseInt(rows.getString("version")));
      }
      return highest < 0 ? OptionalInt.empty() : OptionalInt.of(highest);
    } catch (SQLException | NumberFormatException e) {
      return OptionalInt.empty();
    }
  }
}
