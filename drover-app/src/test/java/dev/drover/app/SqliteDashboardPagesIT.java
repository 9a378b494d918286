package dev.drover.app;

import dev.drover.testing.Databases;
import org.junit.jupiter.api.extension.RegisterExtension;

class SqliteDashboardPagesIT extends DashboardPagesIT {
  @RegisterExtension static final Databases DATABASES = Databases.sqlite();

  SqliteDashboardPagesIT() {
    super(DATABASES);
  }
}
