package dev.drover.store;

import dev.drover.testing.TestPostgres;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store contract on PostgreSQL, in a new schema per test. */
class PostgresStoreTest extends StoreContractTest {
  @Override
  StoreLocation freshLocation() {
    return StoreLocation.postgres(TestPostgres.freshUrl());
  }

  @Override
  Connection connect() throws Exception {
    return DriverManager.getConnection(location.jdbcUrl());
  }

  /** Another process announces work with NOTIFY (not through this JVM): the listener still hears it. */
  @Test
  void aNotifyFromAnotherSessionWakesListeners() throws Exception {
    Semaphore woken = new Semaphore(0);
    try (AutoCloseable subscription = store.onWork(woken::release); Connection other = connect()) {
      // The listener calls once when it starts listening; wait for that and forget it.
      assertThat(woken.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(200);
      woken.drainPermits();
      try (Statement s = other.createStatement()) {
        s.execute("NOTIFY " + WorkSignal.CHANNEL);
      }
      assertThat(woken.tryAcquire(10, TimeUnit.SECONDS)).as("woken by NOTIFY").isTrue();
    }
  }
}
