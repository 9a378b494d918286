package dev.drover.app;

import dev.drover.testing.Databases;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresApiIT extends ApiContractIT {
  @RegisterExtension static final Databases DATABASES = Databases.postgres();

  PostgresApiIT() {
    super(DATABASES);
  }
}
