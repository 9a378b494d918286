package dev.drover.store;

/** The databases Drover runs on. */
public enum Dialect {
  SQLITE("sqlite", "db/migration/sqlite"),
  POSTGRESQL("postgres", "db/migration/postgresql");

  private final String sqlFolder;
  private final String migrations;

  Dialect(String sqlFolder, String migrations) {
    this.sqlFolder = sqlFolder;
    this.migrations = migrations;
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
