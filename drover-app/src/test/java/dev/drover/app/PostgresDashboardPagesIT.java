package dev.drover.app;

import dev.drover.testing.Databases;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresDashboardPagesIT extends DashboardPagesIT {
  @RegisterExtension static final Databases DATABASES = Databases.postgres();

  PostgresDashboardPagesIT() {
    super(DATABASES);
  }
}
