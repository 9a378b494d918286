package dev.drover.store;

import static dev.drover.store.LeaseContract.LEASE;
import static dev.drover.store.LeaseContract.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.FaultProbe;
import dev.drover.testing.Passes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The end of a queued run the runner never wrote is written whole; on PostgreSQL by a plain insert
 * (taskRunInsertEnded). A runner cannot always know that a run has no row: a pass that wrote its
 * start may have committed while the runner heard only an error. Such a run is ended like any
 * other, once, and a pass that fails at any step of it writes nothing.
 */
interface UnwrittenRunContract {
  /** The statements of the pass under test, by query name. */
  Set<String> PASS_QUERIES =
      Set.of("taskUpdateAfterRunAsClaimed", "taskRunInsertEnded", "taskRunEndMany");

  Store store();

  /** Another store on the same database, whose statements and commits {@code probe} sees. */
  Store openProbed(StoreProbe probe);

  Instant BEGAN = T0.plusSeconds(1);

  Instant ENDED = T0.plusSeconds(2);

  /**
   * Two queued claims of a "work" type; the first one's start is written, as by a pass whose commit
   * the runner did not hear back from.
   */
  private static List<Claim> claimedOneStartedUnheard(Store s) {
    s.taskTypeCreate(TaskType.builder("work").build());
    s.taskCreate(
        IntStream.range(0, 2)
            .mapToObj(i -> NewTask.oneshot("work", TaskArguments.of(List.of(i), null)))
            .toList(),
        T0);
    List<Claim> claims = Passes.claim(s, s.taskTypeGet("work").orElseThrow(), "r", T0, LEASE, 2);
    assertThat(claims).hasSize(2);
    Passes.start(s, "r", claims.subList(0, 1), BEGAN);
    return claims;
  }

  /** Both runs ended in one pass, each carrying its start as if neither were written. */
  private static List<Completion> bothEnded(List<Claim> claims) {
    return claims.stream()
        .map(c -> new Completion(c.lease(), TaskRunStatus.EVENTFUL, null, BEGAN, c))
        .toList();
  }

  @Test
  default void aRunWhoseStartWentInUnheardIsEndedOnce() {
    Store s = store();
    List<Claim> claims = claimedOneStartedUnheard(s);
    List<String> statements = Collections.synchronizedList(new ArrayList<>());
    StoreProbe recorder =
        new StoreProbe() {
          @Override
          public void beforeStatement(String queryName) {
            statements.add(queryName);
          }
        };
    try (Store probed = openProbed(recorder)) {
      assertThat(Passes.complete(probed, "r", bothEnded(claims), ENDED))
          .as("leases lost")
          .isEmpty();
    }

    for (Claim c : claims) {
      List<TaskRun> runs = s.taskRunList(List.of(c.task().id()), null, 10);
      assertThat(runs).as("runs of task " + c.task().id()).hasSize(1);
      TaskRun run = runs.get(0);
      assertThat(run.status()).isEqualTo(TaskRunStatus.EVENTFUL);
      assertThat(run.started()).isEqualTo(BEGAN);
      assertThat(run.ended()).isEqualTo(ENDED);
      assertThat(run.metadata().get("worker").asText()).isEqualTo("r");
      assertThat(s.taskGet(List.of(c.task().id())).get(0).status()).isEqualTo(TaskStatus.COMPLETED);
    }
    if (s.dialect() == Dialect.POSTGRESQL) {
      assertThat(statements)
          .as("the plain insert refused, then the upsert")
          .containsSubsequence("taskRunInsertEnded", "taskRunEndMany");
    }
  }

  @ParameterizedTest(name = "{0} fails")
  @ValueSource(
      strings = {
        "taskUpdateAfterRunAsClaimed",
        "taskRunInsertEnded",
        "taskRunEndMany",
        FaultProbe.COMMIT
      })
  default void aPassThatFailsWhileEndingRunsWritesNothing(String step) {
    Store s = store();
    assumeTrue(
        !step.equals("taskRunInsertEnded") || s.dialect() == Dialect.POSTGRESQL,
        "SQLite ends every run with taskRunEndMany");
    List<Claim> claims = claimedOneStartedUnheard(s);
    FaultProbe probe = new FaultProbe(step, Set.of(1), PASS_QUERIES);
    try (Store probed = openProbed(probe)) {
      assertThatThrownBy(() -> Passes.complete(probed, "r", bothEnded(claims), ENDED))
          .isInstanceOf(FaultProbe.InjectedFault.class);
    }
    assertThat(probe.fired()).isEqualTo(1);

    TaskRun started = s.taskRunGet(claims.get(0).run().backendId()).orElseThrow();
    assertThat(started.status())
        .as("the written start, as it was")
        .isEqualTo(TaskRunStatus.STARTED);
    assertThat(s.taskRunGet(claims.get(1).run().backendId())).as("the unwritten run").isEmpty();
    assertThat(s.taskGet(claims.stream().map(c -> c.task().id()).toList()))
        .extracting(Task::status)
        .containsOnly(TaskStatus.NEXT_RUN_SCHEDULED);

    assertThat(Passes.complete(s, "r", bothEnded(claims), ENDED))
        .as("the pass again: both leases still held")
        .isEmpty();
    assertThat(claims)
        .allSatisfy(
            c ->
                assertThat(s.taskRunGet(c.run().backendId()).orElseThrow().status())
                    .isEqualTo(TaskRunStatus.EVENTFUL));
  }
}
