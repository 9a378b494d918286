package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.testing.Databases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

  /**
   * A stats write that waits for another transaction's lock on a listed row writes that row once
   * the lock is free. The row is then a version written after the write began, which the write
   * reaches because it finds its rows by url and visit type (visitStatsUpsert.sql): PostgreSQL
   * follows a waited-for row to its new version and checks that condition again. An update by a row
   * id found before the wait would skip that version.
   */
  @Test
  void aStatsWriteThatWaitsForARowLockStillWritesThatRow() throws Exception {
    listed(lister("github"), FrontierContract.NOW, "a");
    stats(git("a").withLastSuccess(FrontierContract.NOW, "first"));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Connection holder = connect();
        Statement s = holder.createStatement()) {
      holder.setAutoCommit(false);
      s.executeUpdate("UPDATE listed_origin SET last_snapshot = 'holder' WHERE url = 'a'");
      Future<?> write =
          pool.submit(() -> stats(git("a").withLastSuccess(FrontierContract.NOW, "waiter")));
      awaitASessionWaitingForALock();
      assertThat(write).as("the write waits for the row").isNotDone();
      holder.commit();
      write.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertThat(statsOf("a").lastSnapshot()).isEqualTo("waiter");
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT last_snapshot FROM listed_origin WHERE url = 'a'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("waiter");
    }
  }

  /**
   * A stats write that PostgreSQL ends to break a deadlock is written again, and its stats are the
   * ones kept. Another session holds the second url's row; the write updates the first url's row
   * and waits for the second; the other session then asks for the first row. The write has waited
   * longer, so its deadlock check runs first and ends it; the other session then gets the row and
   * commits, and the write's next attempt writes both rows after it.
   */
  @Test
  void aStatsWriteEndedByADeadlockIsWrittenAgain() throws Exception {
    listed(lister("github"), FrontierContract.NOW, "a", "b");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Connection holder = connect();
        Statement s = holder.createStatement()) {
      holder.setAutoCommit(false);
      s.executeUpdate("UPDATE listed_origin SET last_snapshot = 'holder' WHERE url = 'b'");
      Future<?> write =
          pool.submit(
              () ->
                  stats(
                      git("a").withLastSuccess(FrontierContract.NOW, "writer"),
                      git("b").withLastSuccess(FrontierContract.NOW, "writer")));
      awaitASessionWaitingForALock();
      // Waits until PostgreSQL has ended the write's first attempt, which holds this row.
      s.executeUpdate("UPDATE listed_origin SET last_snapshot = 'holder' WHERE url = 'a'");
      holder.commit();
      write.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertThat(statsOf("a").lastSnapshot()).isEqualTo("writer");
    assertThat(statsOf("b").lastSnapshot()).isEqualTo("writer");
  }

  private void awaitASessionWaitingForALock() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      while (System.nanoTime() < deadline) {
        try (ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return;
          }
        }
        Thread.sleep(10);
      }
    }
    throw new AssertionError("no session came to wait for a lock within 30 s");
  }
}
