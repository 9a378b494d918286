package dev.drover.store;

import static dev.drover.store.LeaseContract.LEASE;
import static dev.drover.store.LeaseContract.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.model.NewTask;
import dev.drover.model.RunHistory;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A task type's run history ({@link RunHistory}): what a type that keeps only failures writes for
 * each way a run ends, and that the setting is stored as given. Mixed into {@link
 * StoreContractTest}, so it runs on every database.
 */
interface RunHistoryContract {
  Store store();

  Connection rawConnection() throws Exception;

  /** {@code tasks} due one-shot tasks of a type "light" that keeps only failures, one retry. */
  private TaskType light(int tasks) {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("light")
            .numRetries(1)
            .retryDelay(Duration.ofMinutes(5))
            .runHistory(RunHistory.FAILURES)
            .build());
    s.taskCreate(
        IntStream.range(0, tasks)
            .mapToObj(i -> NewTask.oneshot("light", TaskArguments.of(List.of(i), null)))
            .toList(),
        T0.minusSeconds(1));
    return s.taskTypeGet("light").orElseThrow();
  }

  private List<TaskRun> runsOf(Claim c) {
    return store().taskRunList(List.of(c.task().id()), null, 10);
  }

  private Task reload(Claim c) {
    return store().taskGet(List.of(c.task().id())).get(0);
  }

  @Test
  default void aTypeKeepingFailuresWritesNoSuccessAndKeepsEveryFailure() {
    Store s = store();
    TaskType type = light(5);
    assertThat(type.runHistory()).isEqualTo(RunHistory.FAILURES);
    List<Claim> claims = Passes.claim(s, type, "r", T0, LEASE, 5);
    assertThat(claims).hasSize(5);
    Claim eventful = claims.get(0);
    Claim uneventful = claims.get(1);
    Claim failed = claims.get(2);
    Claim longRunning = claims.get(3);
    Claim unread = claims.get(4);
    Instant began = T0.plusSeconds(1);

    // One pass ends three queued runs that were never written, and writes a start.
    PassResult result =
        Passes.pass(
            s,
            "r",
            T0.plusSeconds(2),
            List.of(new RunStarted(longRunning, began), new RunStarted(unread, began)),
            List.of(
                new Completion(eventful.lease(), TaskRunStatus.EVENTFUL, null, began, eventful),
                new Completion(
                    uneventful.lease(), TaskRunStatus.UNEVENTFUL, null, began, uneventful),
                new Completion(failed.lease(), TaskRunStatus.FAILED, null, began, failed)));
    assertThat(result.notKept())
        .as("the pass says which ends it did not keep")
        .containsExactlyInAnyOrder(eventful.lease(), uneventful.lease());
    assertThat(runsOf(eventful)).as("an eventful end leaves no run").isEmpty();
    assertThat(runsOf(uneventful)).as("an uneventful end leaves no run").isEmpty();
    assertThat(runsOf(failed))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.status()).isEqualTo(TaskRunStatus.FAILED);
              assertThat(r.started()).isEqualTo(began);
              assertThat(r.ended()).isEqualTo(T0.plusSeconds(2));
            });
    assertThat(runsOf(longRunning))
        .as("written started while it executes, so that a crash is charged")
        .singleElement()
        .extracting(TaskRun::status)
        .isEqualTo(TaskRunStatus.STARTED);
    assertThat(reload(eventful).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(reload(uneventful).status()).isEqualTo(TaskStatus.COMPLETED);
    Task retried = reload(failed);
    assertThat(retried.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(retried.retriesLeft()).as("the failure is charged").isZero();

    // Its success removes the start it wrote, whether the end carries the claim or not.
    Passes.complete(
        s,
        "r",
        List.of(
            new Completion(longRunning.lease(), TaskRunStatus.EVENTFUL, null, null, longRunning),
            new Completion(unread.lease(), TaskRunStatus.UNEVENTFUL, null)),
        T0.plusSeconds(3));
    assertThat(runsOf(longRunning)).as("a success removes its start").isEmpty();
    assertThat(runsOf(unread)).as("read, not carried: removed too").isEmpty();
    assertThat(reload(longRunning).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(reload(unread).status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  default void aRunnerThatDiesWithARunOfSuchATypeIsChargedALostAttempt() {
    Store s = store();
    TaskType type = light(1);
    Claim crashed = Passes.claimStarted(s, type, "crashed", T0, LEASE, 1).get(0);
    Instant expiry = T0.plus(LEASE);
    assertThat(s.taskRescueExpired(expiry, 10)).containsExactly(crashed.task().id());
    assertThat(runsOf(crashed))
        .singleElement()
        .extracting(TaskRun::status)
        .isEqualTo(TaskRunStatus.LOST);
    assertThat(reload(crashed).retriesLeft()).as("charged").isZero();

    // The dead owner's late success is refused and removes nothing: the lost run stays.
    assertThat(
            Passes.complete(
                s,
                "crashed",
                List.of(
                    new Completion(crashed.lease(), TaskRunStatus.EVENTFUL, null, null, crashed)),
                expiry))
        .containsExactly(crashed.lease());
    assertThat(runsOf(crashed))
        .singleElement()
        .extracting(TaskRun::status)
        .isEqualTo(TaskRunStatus.LOST);
  }

  @Test
  default void aTypesRunHistoryIsStoredAndChangedAsGiven() throws Exception {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("plain").build());
    assertThat(s.taskTypeGet("plain").orElseThrow().runHistory())
        .as("every run by default")
        .isEqualTo(RunHistory.ALL);
    TaskType changed =
        s.taskTypeGet("plain").orElseThrow().toBuilder().runHistory(RunHistory.FAILURES).build();
    assertThat(s.taskTypeUpsert(changed)).isEqualTo(Store.UpsertResult.UPDATED);
    assertThat(s.taskTypeGet("plain").orElseThrow().runHistory()).isEqualTo(RunHistory.FAILURES);

    try (Connection c = rawConnection();
        Statement st = c.createStatement()) {
      assertThatThrownBy(
              () ->
                  st.executeUpdate(
                      "UPDATE task_type SET run_history = 'some' WHERE name = 'plain'"))
          .as("the database refuses a value Drover does not know")
          .hasMessageContaining("run_history");
    }
  }
}
