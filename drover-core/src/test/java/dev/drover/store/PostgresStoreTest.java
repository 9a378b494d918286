package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.testing.Databases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/** The store contract on PostgreSQL, in a new database per test. */
class PostgresStoreTest extends StoreContractTest {
  PostgresStoreTest() {
    super(Databases.postgres());
  }

  @Override
  Connection connect() throws Exception {
    return DriverManager.getConnection(location.jdbcUrl());
  }

  /**
   * Another process announces work with NOTIFY (not through this JVM): the listener still hears it.
   */
  @Test
  void aNotifyFromAnotherSessionWakesListeners() throws Exception {
    Semaphore woken = new Semaphore(0);
    try (AutoCloseable subscription = store.onWork(woken::release);
        Connection other = connect()) {
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

  /**
   * Creating tasks sends the work signal to other processes at commit, whether the call inserts one
   * task, finds its duplicate, or inserts a batch; a failed call sends nothing.
   */
  @Test
  void creatingTasksNotifiesOtherProcessesAtCommit() throws Exception {
    store.taskTypeCreate(gitType());
    try (Connection other = connect();
        Statement s = other.createStatement()) {
      s.execute("LISTEN " + WorkSignal.CHANNEL);
      PGConnection listener = other.unwrap(PGConnection.class);
      assertThat(listener.getNotifications(200)).isEmpty();

      store.taskCreate(List.of(oneshot("https://a")), T0);
      assertThat(listener.getNotifications(10_000)).as("after a single new task").hasSize(1);
      store.taskCreate(List.of(oneshot("https://a")), T0);
      assertThat(listener.getNotifications(10_000)).as("after a single duplicate").hasSize(1);
      store.taskCreate(List.of(oneshot("https://b"), oneshot("https://c")), T0);
      assertThat(listener.getNotifications(10_000)).as("after a batch").hasSize(1);

      assertThatThrownBy(
              () ->
                  store.taskCreate(
                      List.of(NewTask.oneshot("no-such-type", TaskArguments.empty())), T0))
          .isInstanceOf(ValidationException.class);
      assertThat(listener.getNotifications(300)).as("after a failed call").isEmpty();
    }
  }
}
