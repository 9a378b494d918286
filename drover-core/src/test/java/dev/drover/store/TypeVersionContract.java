package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.FaultProbe;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A single create takes its type as the process last read it and checks, in its insert, that the
 * type's row is still at that version (V020): one statement when nothing changed, and the type as
 * stored whenever another process changed it. Mixed into {@link StoreContractTest}, so it runs on
 * every database.
 */
interface TypeVersionContract {
  Store store();

  Store openAnother();

  Store openProbed(StoreProbe probe);

  Connection rawConnection() throws Exception;

  private static Instant t0() {
    return LeaseContract.T0;
  }

  private static NewTask job(String name) {
    return NewTask.oneshot("job", TaskArguments.of(List.of(name), Map.of()));
  }

  private static TaskType jobType(int retries) {
    return TaskType.builder("job").numRetries(retries).build();
  }

  private long storedVersion() throws Exception {
    try (Connection c = rawConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version FROM task_type WHERE name = 'job'")) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  @Test
  default void aTypeRowMovesItsVersionOnEveryChangeAndOnlyThen() throws Exception {
    store().taskTypeCreate(jobType(1));
    assertThat(storedVersion()).isEqualTo(1);
    assertThat(store().taskTypeUpsert(jobType(1))).isEqualTo(Store.UpsertResult.UNCHANGED);
    assertThat(storedVersion()).as("an unchanged type is not written").isEqualTo(1);
    assertThat(store().taskTypeUpsert(jobType(2))).isEqualTo(Store.UpsertResult.UPDATED);
    assertThat(storedVersion()).isEqualTo(2);
    store().taskTypePause("job", true);
    assertThat(storedVersion()).isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  default void aCreateOfATypeReadBeforeIsOneStatement(boolean claimable) throws Exception {
    store().taskTypeCreate(jobType(1));
    List<String> statements = new CopyOnWriteArrayList<>();
    Store probed =
        openProbed(
            new StoreProbe() {
              @Override
              public void beforeStatement(String queryName) {
                statements.add(queryName);
              }
            });
    CreateClaimContract.Claimer claimer = new CreateClaimContract.Claimer(2);
    try (probed;
        AutoCloseable offers = claimable ? probed.claimOnCreate(claimer) : () -> {}) {
      probed.taskCreate(List.of(job("a")), t0());
      assertThat(statements).as("the first create reads the type").contains("taskTypeGet");
      statements.clear();

      Task second = probed.taskCreate(List.of(job("b")), t0()).get(0);

      String insert = claimable ? "taskInsertClaimed" : "taskInsertUnlessDuplicate";
      assertThat(statements).containsExactly(insert);
      assertThat(second.status())
          .isEqualTo(claimable ? TaskStatus.NEXT_RUN_SCHEDULED : TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  default void aCreateUsesItsTypeAsStoredAfterAnotherProcessChangedIt(boolean claimable)
      throws Exception {
    store().taskTypeCreate(jobType(1));
    CreateClaimContract.Claimer claimer = new CreateClaimContract.Claimer(2);
    try (AutoCloseable offers = claimable ? store().claimOnCreate(claimer) : () -> {};
        Store other = openAnother()) {
      assertThat(store().taskCreate(List.of(job("a")), t0()).get(0).retriesLeft()).isEqualTo(1);

      other.taskTypeUpsert(jobType(5));
      Task created = store().taskCreate(List.of(job("b")), t0()).get(0);

      assertThat(created.retriesLeft()).isEqualTo(5);
      assertThat(store().taskGet(List.of(created.id())).get(0).retriesLeft()).isEqualTo(5);
      assertThat(store().taskSearch(TaskQuery.all())).hasSize(2);
      if (claimable) {
        assertThat(claimer.taken)
            .extracting(c -> c.task().id())
            .as("the create tried again with the stored type still claims")
            .contains(created.id());
        assertThat(claimer.room).as("one unit per claim, none lost to the retry").hasValue(0);
      }
    }
  }

  @Test
  default void aTaskIsRejectedOnlyByItsTypeAsStored() {
    store().taskTypeCreate(jobType(1)); // no interval: one-shot tasks only
    NewTask recurring = NewTask.recurring("job", TaskArguments.of(List.of("r"), Map.of()));
    try (Store other = openAnother()) {
      store().taskCreate(List.of(job("a")), t0());
      assertThatThrownBy(() -> store().taskCreate(List.of(recurring), t0()))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("can only be oneshot");

      other.taskTypeUpsert(
          TaskType.builder("job")
              .numRetries(1)
              .intervals(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1))
              .build());

      Task created = store().taskCreate(List.of(recurring), t0()).get(0);
      assertThat(created.currentInterval()).isEqualTo(Duration.ofHours(1));
    }
  }

  /**
   * A create that finds its type changed, failed at each of its steps: the store writes nothing,
   * and the same create then succeeds with the stored type. The steps, counted over the probed
   * store's life: the first create reads the type (taskTypeGet 1) and inserts (insert 1, commit 1);
   * the second tries the insert with the type as read (insert 2), finds no duplicate
   * (taskFindDuplicates 1), reads the version (taskTypeVersion 1), reads the type (taskTypeGet 2)
   * and inserts again (insert 3, commit 2).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "taskInsertUnlessDuplicate:2",
        "taskFindDuplicates:1",
        "taskTypeVersion:1",
        "taskTypeGet:2",
        "taskInsertUnlessDuplicate:3",
        "commit:2"
      })
  default void aCreateThatFailsWhileItsTypeChangedWritesNothing(String fault) throws Exception {
    String step = fault.substring(0, fault.indexOf(':'));
    int occurrence = Integer.parseInt(fault.substring(fault.indexOf(':') + 1));
    store().taskTypeCreate(jobType(1));
    FaultProbe probe =
        new FaultProbe(step, Set.of(occurrence), Set.of("taskInsertUnlessDuplicate"));
    try (Store probed = openProbed(probe)) {
      probed.taskCreate(List.of(job("a")), t0());
      store().taskTypeUpsert(jobType(5));

      assertThatThrownBy(() -> probed.taskCreate(List.of(job("b")), t0()))
          .isInstanceOf(FaultProbe.InjectedFault.class);
      assertThat(probe.fired()).isEqualTo(1);
      assertThat(probed.taskSearch(TaskQuery.all())).as("nothing written").hasSize(1);

      Task created = probed.taskCreate(List.of(job("b")), t0()).get(0);
      assertThat(created.retriesLeft()).isEqualTo(5);
      assertThat(probed.taskSearch(TaskQuery.all())).hasSize(2);
    }
  }
}
