package dev.drover.app;

import dev.drover.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Every row of Drover's tables (and of Flyway's history), read with plain JDBC, so a test can show
 * that a failed command changed nothing.
 */
final class DbSnapshot {
  static final List<String> TABLES =
      List.of(
          "task_type",
          "worker_group",
          "setting",
          "task",
          "task_run",
          "flyway_schema_history",
          "lister",
          "listed_origin",
          "origin_visit_stats",
          "visit_queue_position",
          "scheduler_metrics");
  static final List<String> NO_DATABASE = List.of("(no drover.db)");

  private DbSnapshot() {}

  /**
   * The rows of the store in {@code dataDir}; {@link #NO_DATABASE} if there is none (and none is
   * created).
   */
  static List<String> ofDataDir(Path dataDir) {
    Path db = dataDir.resolve(StoreLocation.DATABASE_FILE);
    if (!Files.isRegularFile(db)) {
      return NO_DATABASE;
    }
    return of("jdbc:sqlite:" + db.toAbsolutePath());
  }

  static List<String> of(String jdbcUrl) {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        Statement s = c.createStatement()) {
      for (String table : TABLES) {
        try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
          ResultSetMetaData meta = rs.getMetaData();
          while (rs.next()) {
            StringBuilder row = new StringBuilder(table);
            for (int i = 1; i <= meta.getColumnCount(); i++) {
              row.append(" | ").append(meta.getColumnName(i)).append('=').append(rs.getString(i));
            }
            rows.add(row.toString());
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read " + jdbcUrl, e);
    }
    return rows;
  }
}
