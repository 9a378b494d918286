package dev.drover.store;

/** The databases Drover runs on. */
public enum Dialect {
  SQLITE("sqlite", "db/migration/sqlite", false),
  POSTGRESQL("postgres", "db/migration/postgresql", true);

  private final String sqlFolder;
  private final String migrations;
  private final boolean writersRunSideBySide;

  Dialect(String sqlFolder, String migrations, boolean writersRunSideBySide) {
    this.sqlFolder = sqlFolder;
    this.migrations = migrations;
    this.writersRunSideBySide = writersRunSideBySide;
  }

  /**
   * True if two transactions that write different rows run at once; false if writers take turns
   * (SQLite: one writer per database), so two transactions in place of one only cost more.
   */
  public boolean writersRunSideBySide() {
    return writersRunSideBySide;
  }

  /** The folder under {@code dev/drover/store/} holding this dialect's own queries. */
  String sqlFolder() {
    return sqlFolder;
  }

  /** The class-path location of this dialect's Flyway migrations. */
  String migrations() {
    return migrations;
  }
}
