package dev.drover.engine;

import dev.drover.testing.Databases;

class PostgresVisitSchedulerTest extends VisitSchedulerContractTest {
  PostgresVisitSchedulerTest() {
    super(Databases.postgres());
  }
}
