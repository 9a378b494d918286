package dev.drover.store;

import dev.drover.ValidationException;
import java.util.Arrays;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;

/** Brings a database's schema up to this program's version with the dialect's Flyway migrations. */
final class Migrations {
  private Migrations() {}

  static void migrate(DataSource source, Dialect dialect, StoreLocation location) {
    Flyway flyway = Flyway.configure()
        .dataSource(source)
        .locations("classpath:" + dialect.migrations())
        .loggers("slf4j")
        .load();
    MigrationInfo[] future = Arrays.stream(flyway.info().all())
        .filter(m -> m.getState() == MigrationState.FUTURE_SUCCESS)
        .toArray(MigrationInfo[]::new);
    if (future.length > 0) {
      // Flyway would ignore these; running old code on a newer schema could corrupt it.
      String newest = future[future.length - 1].getVersion().toString();
      throw new ValidationException(location.isSqlite() ? "data-dir" : "db", "the schema at "
          + location.describe() + " is at version " + newest
          + ", newer than this Drover understands; upgrade Drover");
    }
    flyway.migrate();
  }
}
