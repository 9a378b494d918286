package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.RunToSchedule;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store.ArchiveDeletion;
import dev.drover.store.Store.DeletedRun;
import dev.drover.store.Store.TaskDeletion;
import dev.drover.testing.HeldCommit;
import dev.drover.testing.Passes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run never outlives its task. PostgreSQL keeps this by locks rather than a foreign key (V019):
 * these tests race a transaction that writes a run, held just before its commit, against a deletion
 * of its task, and check that nothing is left behind. Mixed into {@link StoreContractTest}, so it
 * runs on every database.
 */
interface RunIntegrityContract {
  /** How long the racing deletion is given to reach the task's lock before the writer commits. */
  Duration REACH = Duration.ofMillis(300);

  Store store();

  Store openProbed(StoreProbe probe);

  Connection rawConnection() throws Exception;

  private static Instant t0() {
    return LeaseContract.T0;
  }

  @Test
  default void schedulingARunOfATaskThatDoesNotExistIsRefusedAndWritesNothing() {
    long id = oneTask();
    long missing = id + 1000;
    assertThatThrownBy(
            () ->
                store()
                    .taskRunSchedule(
                        List.of(
                            new RunToSchedule(id, "kept", null, t0()),
                            new RunToSchedule(missing, "orphan", null, t0()))))
        .isInstanceOf(ValidationException.class)
        .hasMessage("task: no task " + missing);
    assertThat(store().taskRunGet("kept")).as("all or nothing").isEmpty();
    assertThat(store().taskRunGet("orphan")).isEmpty();
  }

  @Test
  default void aRunScheduledWhileItsTaskIsDeletedIsDeletedWithIt() throws Exception {
    long id = oneTask();
    TaskDeletion deleted =
        raceAgainstHeldCommit(
            s -> s.taskRunSchedule(List.of(new RunToSchedule(id, "racing", null, t0()))),
            () -> store().taskDelete(List.of(id), false, t0()));
    assertThat(deleted.tasks()).isEqualTo(1);
    assertThat(deleted.runs()).extracting(DeletedRun::backendId).containsExactly("racing");
    assertThat(runsWithoutTheirTask()).isZero();
  }

  @Test
  default void aTaskArchivedWhileARunIsScheduledForItIsKeptWithItsRun() throws Exception {
    long id = oneTask();
    ArchiveDeletion archived =
        raceAgainstHeldCommit(
            s -> s.taskRunSchedule(List.of(new RunToSchedule(id, "racing", null, t0()))),
            () -> store().archiveDelete(List.of(id), List.of()));
    assertThat(archived.tasks()).as("a task with a run is not archived away").isZero();
    assertThat(store().taskGet(List.of(id))).hasSize(1);
    assertThat(store().taskRunGet("racing")).isPresent();
    assertThat(runsWithoutTheirTask()).isZero();
  }

  @Test
  default void aRunAPassEndsWhileItsTaskIsDeletedIsDeletedWithIt() throws Exception {
    long id = oneTask();
    TaskType type = store().taskTypeGet("work").orElseThrow();
    Claim claim = Passes.claim(store(), type, "r", t0(), Duration.ofMinutes(5), 1).get(0);
    Completion done =
        new Completion(
            claim.lease(),
            TaskRunStatus.EVENTFUL,
            Json.object(),
            t0().plusSeconds(1),
            claim,
            List.of());
    TaskDeletion deleted =
        raceAgainstHeldCommit(
            s -> Passes.complete(s, "r", List.of(done), t0().plusSeconds(2)),
            () -> store().taskDelete(List.of(id), false, t0().plusSeconds(3)));
    assertThat(deleted.tasks()).isEqualTo(1);
    assertThat(deleted.runs())
        .extracting(DeletedRun::backendId)
        .containsExactly(claim.run().backendId());
    assertThat(runsWithoutTheirTask()).isZero();
  }

  /** A task of type {@code work}, created by this store; returns its id. */
  private long oneTask() {
    store().taskTypeCreate(TaskType.builder("work").build());
    Task t =
        store()
            .taskCreate(List.of(NewTask.oneshot("work", TaskArguments.of(List.of(1), null))), t0())
            .get(0);
    return t.id();
  }

  /**
   * Runs {@code write} on another store of the same database, held just before it commits; starts
   * {@code deletion} meanwhile, gives it {@link #REACH} to begin waiting, lets the write commit,
   * and returns what the deletion returned.
   */
  private <T> T raceAgainstHeldCommit(StoreCall write, Callable<T> deletion) throws Exception {
    HeldCommit held = new HeldCommit();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (Store writer = openProbed(held)) {
      held.arm();
      Future<?> writing =
          threads.submit(
              () -> {
                write.call(writer);
                return null;
              });
      assertThat(held.awaitReached(Duration.ofSeconds(30)))
          .as("the write reached its commit")
          .isTrue();
      Future<T> deleting = threads.submit(deletion);
      Thread.sleep(REACH.toMillis());
      held.release();
      writing.get(30, TimeUnit.SECONDS);
      return deleting.get(30, TimeUnit.SECONDS);
    } finally {
      held.release();
      threads.shutdownNow();
    }
  }

  private long runsWithoutTheirTask() throws Exception {
    try (Connection c = rawConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM task_run r"
                    + " WHERE NOT EXISTS (SELECT 1 FROM task t WHERE t.id = r.task)")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** A store call made by the racing writer. */
  interface StoreCall {
    void call(Store s) throws Exception;
  }
}
