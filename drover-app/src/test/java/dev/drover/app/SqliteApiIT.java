package dev.drover.app;

import dev.drover.testing.Databases;
import org.junit.jupiter.api.extension.RegisterExtension;

class SqliteApiIT extends ApiContractIT {
  @RegisterExtension static final Databases DATABASES = Databases.sqlite();

  SqliteApiIT() {
    super(DATABASES);
  }
}
