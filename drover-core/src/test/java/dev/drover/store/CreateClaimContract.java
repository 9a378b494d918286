package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Json;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.FaultProbe;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Claiming on create ({@link CreateClaimer}): a task created alone, due, is written claimed for a
 * runner of the process that offers a worker slot, under the claim's rules, and the runner learns
 * of it only once it committed. Mixed into {@link StoreContractTest}, so it runs on every database.
 */
interface CreateClaimContract {
  Store store();

  Store openProbed(StoreProbe probe);

  String OWNER = "creator-runner";
  Duration LEASE = Duration.ofMinutes(5);

  private static Instant t0() {
    return LeaseContract.T0;
  }

  private static NewTask job(String name) {
    return NewTask.oneshot("job", TaskArguments.of(List.of(name), Map.of()));
  }

  private static Store withJobType(Store s) {
    s.taskTypeCreate(TaskType.builder("job").numRetries(1).build());
    return s;
  }

  /** A runner's side as the store sees it: {@code room} slots, and what became of each offer. */
  final class Claimer implements CreateClaimer {
    final AtomicInteger room;
    final AtomicInteger offered = new AtomicInteger();
    final AtomicInteger withdrawn = new AtomicInteger();
    final List<Claim> taken = new CopyOnWriteArrayList<>();

    Claimer(int room) {
      this.room = new AtomicInteger(room);
    }

    @Override
    public Offer offer(String type, Instant now) {
      if (room.getAndDecrement() <= 0) {
        room.incrementAndGet();
        return null;
      }
      offered.incrementAndGet();
      return new Offer() {
        @Override
        public String owner() {
          return OWNER;
        }

        @Override
        public Instant leaseUntil() {
          return now.plus(LEASE);
        }

        @Override
        public void taken(Claim claim) {
          taken.add(claim);
        }

        @Override
        public void withdrawn() {
          room.incrementAndGet();
          withdrawn.incrementAndGet();
        }
      };
    }
  }

  @Test
  default void aTaskCreatedAloneIsClaimedForTheRunnerThatOffersASlotAndEndsThroughItsLease()
      throws Exception {
    Store s = withJobType(store());
    Claimer claimer = new Claimer(1);
    Task created;
    try (AutoCloseable offers = s.claimOnCreate(claimer)) {
      created = s.taskCreate(List.of(job("a")), t0()).get(0);
    }
    assertThat(created.status()).isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
    assertThat(created.nextRun()).as("the lease's end").isEqualTo(t0().plus(LEASE));
    assertThat(claimer.taken).hasSize(1);
    Claim claim = claimer.taken.get(0);
    assertThat(claim.lease()).isEqualTo(new Lease(created.id(), 1));
    assertThat(claim.run().backendId()).isEqualTo(created.id() + ".1");
    assertThat(claim.run().status()).isEqualTo(TaskRunStatus.SCHEDULED);
    assertThat(claimer.withdrawn).hasValue(0);
    assertThat(s.taskGet(List.of(created.id())).get(0).status())
        .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);

    TaskType job = s.taskTypeGet("job").orElseThrow();
    assertThat(Passes.claim(s, job, "another-runner", t0(), LEASE, 10))
        .as("held by the creator's runner")
        .isEmpty();
    Completion done =
        new Completion(
            claim.lease(), TaskRunStatus.EVENTFUL, Json.object(), t0().plusSeconds(1), claim);
    assertThat(Passes.complete(s, OWNER, List.of(done), t0().plusSeconds(2)))
        .as("the lease holds")
        .isEmpty();
    List<TaskRun> runs = s.taskRunList(List.of(created.id()), null, 10);
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(runs.get(0).metadata().path("worker").asText()).isEqualTo(OWNER);
  }

  @Test
  default void aCreateClaimsNothingWhileAnOlderDueTaskOfItsTypeWaits() throws Exception {
    Store s = withJobType(store());
    Task older = s.taskCreate(List.of(job("older").withNextRun(t0().minusSeconds(1))), t0()).get(0);
    Claimer claimer = new Claimer(1);
    Task created;
    try (AutoCloseable offers = s.claimOnCreate(claimer)) {
      created = s.taskCreate(List.of(job("newer")), t0()).get(0);
    }
    assertThat(created.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(claimer.taken).isEmpty();
    assertThat(claimer.withdrawn).hasValue(1);
    assertThat(claimer.room).as("the slot given back").hasValue(1);
    TaskType job = s.taskTypeGet("job").orElseThrow();
    assertThat(Passes.claim(s, job, "runner", t0(), LEASE, 1))
        .extracting(c -> c.task().id())
        .as("the older task first")
        .containsExactly(older.id());
  }

  @Test
  default void aCreateClaimsNothingForAPausedTypeAFutureTaskAPerKeyTypeOrABatch() throws Exception {
    Store s = withJobType(store());
    s.taskTypeCreate(TaskType.builder("build").perKeyLimit("owner", 1).build());
    Claimer claimer = new Claimer(10);
    try (AutoCloseable offers = s.claimOnCreate(claimer)) {
      Task later =
          s.taskCreate(List.of(job("later").withNextRun(t0().plusSeconds(1))), t0()).get(0);
      Task keyed =
          s.taskCreate(
                  List.of(
                      NewTask.oneshot(
                          "build", TaskArguments.of(List.of("x"), Map.of("owner", "ann")))),
                  t0())
              .get(0);
      List<Task> batch = s.taskCreate(List.of(job("b1"), job("b2")), t0());
      assertThat(claimer.offered).as("no slot asked for").hasValue(0);
      s.taskTypePause("job", true);
      Task paused = s.taskCreate(List.of(job("paused")), t0()).get(0);
      assertThat(claimer.offered).hasValue(1);
      assertThat(claimer.withdrawn).hasValue(1);
      assertThat(List.of(later, keyed, batch.get(0), batch.get(1), paused))
          .extracting(Task::status)
          .containsOnly(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    }
    assertThat(claimer.taken).isEmpty();
    assertThat(claimer.room).hasValue(10);
  }

  @Test
  default void aDuplicateOfAWaitingTaskIsReturnedNotClaimed() throws Exception {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("feed")
            .intervals(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1))
            .build());
    NewTask feed = NewTask.recurring("feed", TaskArguments.of(List.of("f"), Map.of()));
    Task waiting = s.taskCreate(List.of(feed.withNextRun(t0().plusSeconds(3600))), t0()).get(0);
    Claimer claimer = new Claimer(1);
    Task again;
    try (AutoCloseable offers = s.claimOnCreate(claimer)) {
      // Due now, and a duplicate: a recurring task's duplicate is due whenever.
      again = s.taskCreate(List.of(feed), t0()).get(0);
    }
    assertThat(again.id()).isEqualTo(waiting.id());
    assertThat(again.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(claimer.offered).hasValue(1);
    assertThat(claimer.withdrawn).hasValue(1);
    assertThat(claimer.taken).isEmpty();
    assertThat(s.taskSearch(TaskQuery.all())).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"taskInsertClaimed", FaultProbe.COMMIT})
  default void aCreateThatFailsWritesNothingAndGivesTheSlotBack(String step) throws Exception {
    withJobType(store());
    Store probed = openProbed(new FaultProbe(step, Set.of(1), Set.of("taskInsertClaimed")));
    try {
      Claimer claimer = new Claimer(1);
      try (AutoCloseable offers = probed.claimOnCreate(claimer)) {
        assertThatThrownBy(() -> probed.taskCreate(List.of(job("a")), t0()))
            .hasMessageContaining("injected fault");
        assertThat(probed.taskSearch(TaskQuery.all())).as("nothing written").isEmpty();
        assertThat(claimer.taken).isEmpty();
        assertThat(claimer.room).as("the slot given back").hasValue(1);

        Task created = probed.taskCreate(List.of(job("b")), t0()).get(0);
        assertThat(created.status()).isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
        assertThat(claimer.taken).extracting(c -> c.task().id()).containsExactly(created.id());
      }
    } finally {
      probed.close();
    }
  }
}
