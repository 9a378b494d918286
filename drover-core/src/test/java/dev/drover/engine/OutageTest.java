package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Outcome;
import dev.drover.model.Event;
import dev.drover.model.EventKind;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.StoreOptions;
import dev.drover.store.Stores;
import dev.drover.testing.SqliteLocker;
import dev.drover.testing.TestJvm;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A daemon outlives the database going away: a PostgreSQL server stopped for longer than a one-off
 * run's limit of failed passes and started again, and a SQLite file whose write lock another
 * process holds for a while. The runner backs off, says once that it lost the database and once
 * that it has it back, and runs what was created after.
 */
@Timeout(180)
class OutageTest {
  @TempDir Path dir;
  private final ExecutorService background = Executors.newCachedThreadPool();
  private final Semaphore ran = new Semaphore(0);

  @AfterEach
  void shutDown() {
    background.shutdownNow();
  }

  @Test
  void aDaemonOutlivesAPostgresqlRestart() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path data = dir.resolve("pg");
    EmbeddedPostgres pg = startPostgres(data, port);
    StoreLocation location = StoreLocation.postgres(pg.getJdbcUrl("postgres", "postgres"));
    try (Store store = Stores.open(location, quickToFail())) {
      Runner runner = daemon(store);
      Future<RunnerStats> run = background.submit(runner::run);
      addAndAwait(store, 0, 3);

      pg.close(); // the server is gone ...
      // ... for longer than a one-off run accepts: each pass fails within the connection
      // timeout, and the backoff stays short.
      Thread.sleep(Outage.ONE_OFF_LIMIT * 400L);
      assertThat(run.isDone()).as("the runner is still up during the outage").isFalse();
      pg = startPostgres(data, port);

      addAndAwait(store, 3, 3);
      runner.stop(Duration.ofSeconds(5));
      assertThat(run.get(60, TimeUnit.SECONDS).eventful()).isEqualTo(6);
      assertOutageSaidOnce(store, Outage.ONE_OFF_LIMIT);
    } finally {
      pg.close();
    }
  }

  @Test
  void aStopIsHonouredWithinTheGraceWhilePostgresqlIsStopped() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    EmbeddedPostgres pg = startPostgres(dir.resolve("pg-stop"), port);
    StoreLocation location = StoreLocation.postgres(pg.getJdbcUrl("postgres", "postgres"));
    // The default connection timeout (30 s): a store call blocks that long while the server is
    // away, and before the fix the loop saw the stop only between such calls.
    try (Store store = Stores.open(location)) {
      store.taskTypeCreate(TaskType.builder("long").build());
      Semaphore began = new Semaphore(0);
      RunnerOptions options =
          RunnerOptions.defaults(dir.resolve("runs"))
              .withExitOnIdle(false)
              .withPollInterval(Duration.ofMillis(100));
      Runner runner =
          new RunnerBuilder(store, options.runsDir())
              .options(options)
              .handler(
                  "long",
                  ctx -> {
                    began.release();
                    Thread.sleep(600_000);
                    return Outcome.eventful();
                  })
              .build();
      Future<RunnerStats> run = background.submit(runner::run);
      store.taskCreate(
          List.of(NewTask.oneshot("long", TaskArguments.of(List.of(), null))),
          Clock.systemUTC().instant());
      assertThat(began.tryAcquire(60, TimeUnit.SECONDS)).as("the task runs").isTrue();

      pg.close(); // the server is gone, and stays gone
      Thread.sleep(500); // the runner is in a pass or a backoff that fails
      Duration grace = Duration.ofSeconds(2);
      long asked = System.nanoTime();
      runner.stop(grace);
      run.get(grace.toSeconds() + 10, TimeUnit.SECONDS); // a generous bound, not a timing
      assertThat(Duration.ofNanos(System.nanoTime() - asked))
          .as("returned soon after the grace")
          .isLessThan(grace.plusSeconds(10));
      assertThat(Thread.currentThread().isInterrupted()).isFalse();
    } finally {
      pg.close();
    }
  }

  @Test
  void aDaemonOutlivesASqliteFileLockedByAnotherProcess() throws Exception {
    StoreLocation location = StoreLocation.dataDir(dir.resolve("data"));
    try (Store store = Stores.open(location, quickToFail())) {
      Runner runner = daemon(store);
      Future<RunnerStats> run = background.submit(runner::run);
      addAndAwait(store, 0, 3);

      Path file = location.dataDir().resolve(StoreLocation.DATABASE_FILE);
      Process locker = TestJvm.start(SqliteLocker.class, file.toString(), "4000");
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(locker.getInputStream(), StandardCharsets.UTF_8))) {
        assertThat(out.readLine()).isEqualTo("locked");
        assertThat(locker.waitFor(60, TimeUnit.SECONDS)).as("the locker let go").isTrue();
      }
      assertThat(run.isDone()).as("the runner is still up after the lock").isFalse();

      addAndAwait(store, 3, 3);
      runner.stop(Duration.ofSeconds(5));
      assertThat(run.get(60, TimeUnit.SECONDS).eventful()).isEqualTo(6);
      assertOutageSaidOnce(store, 1);
    }
  }

  private static EmbeddedPostgres startPostgres(Path data, int port) throws Exception {
    return EmbeddedPostgres.builder()
        .setDataDirectory(data)
        .setCleanDataDirectory(false)
        .setPort(port)
        .start();
  }

  /** Calls fail fast while the database is away, so the test sees many failed passes. */
  private static StoreOptions quickToFail() {
    return StoreOptions.DEFAULT
        .withConnectionTimeout(Duration.ofMillis(250))
        .withSqliteBusyTimeout(Duration.ofMillis(200));
  }

  private Runner daemon(Store store) {
    RunnerOptions options =
        RunnerOptions.defaults(dir.resolve("runs"))
            .withExitOnIdle(false)
            .withPollInterval(Duration.ofMillis(100))
            .withOutageBackoff(Duration.ofMillis(20), Duration.ofMillis(100));
    store.taskTypeCreate(TaskType.builder("work").build());
    return new RunnerBuilder(store, options.runsDir())
        .options(options)
        .handler(
            "work",
            ctx -> {
              ran.release();
              return Outcome.eventful();
            })
        .build();
  }

  /** Adds {@code n} tasks (retrying while the database comes back) and waits until they ran. */
  private void addAndAwait(Store store, int from, int n) throws Exception {
    List<NewTask> tasks =
        IntStream.range(from, from + n)
            .mapToObj(i -> NewTask.oneshot("work", TaskArguments.of(List.of(i), null)))
            .toList();
    for (int attempt = 1; ; attempt++) {
      try {
        store.taskCreate(tasks, Clock.systemUTC().instant());
        break;
      } catch (RuntimeException e) {
        assertThat(attempt).as("tasks added once the database is back: " + e).isLessThan(100);
        Thread.sleep(200);
      }
    }
    assertThat(ran.tryAcquire(n, 60, TimeUnit.SECONDS)).as("tasks " + from + ".. ran").isTrue();
  }

  private static void assertOutageSaidOnce(Store store, int minFailedPasses) {
    List<Event> events = store.eventList(0, 10_000);
    assertThat(events.stream().filter(e -> e.is(EventKind.DATABASE_LOST))).hasSize(1);
    List<Event> regained = events.stream().filter(e -> e.is(EventKind.DATABASE_REGAINED)).toList();
    assertThat(regained).hasSize(1);
    assertThat(regained.get(0).detail().path("failed_passes").asInt())
        .isGreaterThanOrEqualTo(minFailedPasses);
  }
}
