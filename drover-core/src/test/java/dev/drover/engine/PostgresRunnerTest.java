package dev.drover.engine;

import dev.drover.testing.Databases;

class PostgresRunnerTest extends RunnerContractTest {
  PostgresRunnerTest() {
    super(Databases.postgres());
  }
}
