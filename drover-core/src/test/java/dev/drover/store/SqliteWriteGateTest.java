package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.model.Task;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threads of a process take turns at an SQLite file's write lock in the order they asked for
 * it, and a wait longer than the busy timeout still ends as SQLite's busy timeout would.
 */
class SqliteWriteGateTest {
  private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

  @TempDir Path dir;

  /** A transaction outside the store, through the same file's gate, that holds the write lock. */
  private Thread holdWriteLock(
      Store store, Duration gateWait, CountDownLatch held, CountDownLatch release) {
    Jdbi jdbi = Jdbi.create(store.dataSource().orElseThrow());
    SqliteWriteGate.of(dir.resolve(StoreLocation.DATABASE_FILE), gateWait).install(jdbi);
    Thread holder =
        new Thread(
            () ->
                jdbi.useTransaction(
                    h -> {
                      h.execute("UPDATE task_type SET description = description");
                      held.countDown();
                      try {
                        release.await();
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }),
            "holder");
    holder.start();
    return holder;
  }

  /**
   * Five writers queue behind a transaction holding the write lock, one after another; once it
   * ends, their tasks are created in the order they queued (ids ascend in commit order). Through
   * SQLite's busy handler alone, each would wake at its own time and the order would be a race.
   */
  @Test
  void writersWaitingForTheLockGetItInTheOrderTheyAskedForIt() throws Exception {
    try (Store store = Stores.open(StoreLocation.dataDir(dir))) {
      store.taskTypeCreate(StoreContractTest.gitType());
      CountDownLatch held = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Thread holder = holdWriteLock(store, Duration.ofSeconds(30), held, release);
      assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();

      List<Thread> writers = new ArrayList<>();
      Map<Long, String> urlById = new ConcurrentSkipListMap<>();
      for (int i = 0; i < 5; i++) {
        String url = "https://example.org/" + i;
        Thread w =
            new Thread(
                () -> {
                  Task t = store.taskCreate(List.of(StoreContractTest.oneshot(url)), T0).get(0);
                  urlById.put(t.id(), url);
                },
                "writer-" + i);
        w.start();
        awaitWaitingAtTheGate(w);
        writers.add(w);
      }
      release.countDown();
      holder.join(30_000);
      for (Thread w : writers) {
        w.join(30_000);
      }

      assertThat(urlById.values())
          .containsExactly(
              "https://example.org/0",
              "https://example.org/1",
              "https://example.org/2",
              "https://example.org/3",
              "https://example.org/4");
    }
  }

  /** A writer that waits at the gate past its busy timeout fails as busy; it does not hang. */
  @Test
  void aWaitPastTheBusyTimeoutEndsAsSqliteReportsBusy() throws Exception {
    StoreOptions options = StoreOptions.DEFAULT.withSqliteBusyTimeout(Duration.ofMillis(200));
    try (Store store = Stores.open(StoreLocation.dataDir(dir), options)) {
      store.taskTypeCreate(StoreContractTest.gitType());
      CountDownLatch held = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Thread holder = holdWriteLock(store, Duration.ofMillis(200), held, release);
      try {
        assertThat(held.await(30, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(
                () -> store.taskCreate(List.of(StoreContractTest.oneshot("https://a")), T0))
            .hasStackTraceContaining("SQLITE_BUSY");
      } finally {
        release.countDown();
        holder.join(30_000);
      }
      assertThat(store.taskCreate(List.of(StoreContractTest.oneshot("https://a")), T0))
          .as("the lock is free again")
          .hasSize(1);
    }
  }

  /**
   * Waits until {@code t} waits at the file's gate: its place in the queue is then taken (a thread
   * merely parked may still be waiting for a pooled connection, and would queue later).
   */
  private void awaitWaitingAtTheGate(Thread t) throws InterruptedException {
    SqliteWriteGate gate =
        SqliteWriteGate.of(dir.resolve(StoreLocation.DATABASE_FILE), Duration.ofSeconds(30));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!gate.isWaiting(t)) {
      assertThat(System.nanoTime()).as(t.getName() + " waits at the gate").isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
