package dev.drover.engine;

import dev.drover.testing.Databases;

class SqliteVisitSchedulerTest extends VisitSchedulerContractTest {
  SqliteVisitSchedulerTest() {
    super(Databases.sqlite());
  }
}
