package dev.drover.engine;

import dev.drover.testing.Databases;

class SqliteRunnerTest extends RunnerContractTest {
  SqliteRunnerTest() {
    super(Databases.sqlite());
  }
}
