package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Json;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import dev.drover.testing.HeldCommit;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The claim protocol's contract: claims, heartbeats, fenced completion, rescue and release. Mixed
 * into {@link StoreContractTest}, so it runs on every database.
 */
interface LeaseContract {
  Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  Duration LEASE = Duration.ofSeconds(60);

  Store store();

  /** Another store on the same database, whose statements and commits {@code probe} sees. */
  Store openProbed(StoreProbe probe);

  private Store prepared(int tasks) {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("work")
            .intervals(Duration.ofHours(1), Duration.ofMinutes(1), Duration.ofDays(1))
            .backoffFactor(2)
            .numRetries(1)
            .retryDelay(Duration.ofMinutes(5))
            .build());
    s.taskCreate(
        IntStream.range(0, tasks)
            .mapToObj(
                i ->
                    NewTask.oneshot("work", TaskArguments.of(List.of(i), null))
                        .withNextRun(T0.minusSeconds(tasks - i)))
            .toList(),
        T0);
    return s;
  }

  /** The stored "work" type, as a runner passes it to a claim. */
  static TaskType work(Store s) {
    return s.taskTypeGet("work").orElseThrow();
  }

  private static Task reload(Store s, long id) {
    return s.taskGet(List.of(id)).get(0);
  }

  @Test
  default void aClaimLeasesTasksAndItsRunIsWrittenStartedOnceBegun() {
    Store s = prepared(3);
    List<Claim> claims = Passes.claim(s, work(s), "runner-a", T0, LEASE, 2);
    assertThat(claims).hasSize(2);
    Claim first = claims.get(0);
    assertThat(first.task().arguments().args().get(0).asInt()).isZero();
    assertThat(first.leaseUntil()).isEqualTo(T0.plus(LEASE));
    assertThat(first.lease().attempt()).isEqualTo(1);
    assertThat(first.run().status()).as("queued, not begun").isEqualTo(TaskRunStatus.SCHEDULED);
    assertThat(first.run().backendId()).isEqualTo(first.task().id() + ".1");
    assertThat(first.run().metadata().get("worker").asText()).isEqualTo("runner-a");
    assertThat(s.taskRunGet(first.run().backendId())).as("no run written by the claim").isEmpty();
    assertThat(reload(s, first.task().id()).status()).isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);

    // The runner's next pass carries the start: the run is written, started.
    Instant began = T0.plusSeconds(1);
    Passes.start(s, "runner-a", List.of(first), began);
    TaskRun run = s.taskRunGet(first.run().backendId()).orElseThrow();
    assertThat(run.status()).isEqualTo(TaskRunStatus.STARTED);
    assertThat(run.scheduled()).isEqualTo(T0);
    assertThat(run.started()).isEqualTo(began);
    assertThat(run.metadata().get("worker").asText()).isEqualTo("runner-a");
    assertThat(s.taskRunGet(claims.get(1).run().backendId()))
        .as("not begun, not written")
        .isEmpty();

    assertThat(Passes.claim(s, work(s), "runner-b", T0, LEASE, 5)).hasSize(1);
    assertThat(Passes.claim(s, work(s), "runner-b", T0.plus(Duration.ofHours(1)), LEASE, 5))
        .as("a lease is not a due task, whatever the time")
        .isEmpty();
  }

  @Test
  default void aStartIsWrittenOnlyForALeaseStillHeld() {
    Store s = prepared(1);
    Claim c = Passes.claim(s, work(s), "r", T0, LEASE, 1).get(0);
    Passes.start(s, "someone-else", List.of(c), T0.plusSeconds(1));
    assertThat(s.taskRunGet(c.run().backendId())).as("another owner's start").isEmpty();
    s.taskRelease("r", List.of(c.lease()), T0.plusSeconds(2));
    Passes.start(s, "r", List.of(c), T0.plusSeconds(3));
    assertThat(s.taskRunGet(c.run().backendId())).as("a start after the release").isEmpty();
  }

  @Test
  default void claimsTakePriorityTasksFirst() {
    Store s = prepared(3);
    s.taskCreate(
        List.of(
            NewTask.oneshot("work", TaskArguments.of(List.of("urgent"), null))
                .withPriority(TaskPriority.HIGH)),
        T0);
    List<Claim> claims = Passes.claim(s, work(s), "r", T0, LEASE, 2);
    assertThat(claims.get(0).task().priority()).isEqualTo(TaskPriority.HIGH);
    assertThat(claims).hasSize(2);
  }

  @Test
  default void claimsSplitTheirBudgetBetweenPriorityLevelsByTheShares() {
    Store s = prepared(6); // six tasks without a priority, the oldest
    List<NewTask> prioritized = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      prioritized.add(
          NewTask.oneshot("work", TaskArguments.of(List.of("high", i), null))
              .withPriority(TaskPriority.HIGH));
      prioritized.add(
          NewTask.oneshot("work", TaskArguments.of(List.of("low", i), null))
              .withPriority(TaskPriority.LOW));
    }
    prioritized.add(
        NewTask.oneshot("work", TaskArguments.of(List.of("normal"), null))
            .withPriority(TaskPriority.NORMAL));
    s.taskCreate(prioritized, T0);

    // Of 10: high wants 5; normal wants 3 but has 1; low wants 2 plus normal's 2 left over.
    List<Claim> first = Passes.claim(s, work(s), "r", T0, LEASE, 10);
    assertThat(first)
        .extracting(c -> c.task().priority())
        .containsExactly(
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.NORMAL,
            TaskPriority.LOW,
            TaskPriority.LOW,
            TaskPriority.LOW,
            TaskPriority.LOW);
    // Then the last high and low ones, and tasks without a priority take what the levels leave.
    List<Claim> second = Passes.claim(s, work(s), "r", T0, LEASE, 10);
    assertThat(second)
        .extracting(c -> c.task().priority())
        .containsExactly(
            TaskPriority.HIGH,
            TaskPriority.LOW,
            TaskPriority.LOW,
            null,
            null,
            null,
            null,
            null,
            null);
    assertThat(second.subList(3, 9)).extracting(c -> c.task().id()).isSorted();
    assertThat(Passes.claim(s, work(s), "r", T0, LEASE, 10)).isEmpty();
  }

  @Test
  default void heartbeatsExtendHeldLeasesAndReportLostOnes() {
    Store s = prepared(2);
    List<Claim> claims = Passes.claim(s, work(s), "r", T0, LEASE, 2);
    Lease stale = new Lease(claims.get(1).lease().taskId(), 7);
    List<Lease> lost =
        s.taskHeartbeat("r", List.of(claims.get(0).lease(), stale), T0.plus(Duration.ofMinutes(5)));
    assertThat(lost).containsExactly(stale);
    assertThat(reload(s, claims.get(0).task().id()).nextRun())
        .isEqualTo(T0.plus(Duration.ofMinutes(5)));
    assertThat(
            s.taskHeartbeat(
                "someone-else", List.of(claims.get(0).lease()), T0.plus(Duration.ofHours(1))))
        .containsExactly(claims.get(0).lease());
  }

  @Test
  default void aCompletionEndsTheRunAndReschedules() {
    Store s = prepared(1);
    Claim c = Passes.claimStarted(s, work(s), "r", T0, LEASE, 1).get(0);
    List<Lease> rejected =
        Passes.complete(
            s,
            "r",
            List.of(
                new Completion(
                    c.lease(),
                    TaskRunStatus.EVENTFUL,
                    Json.parseObject("metadata", "{\"result\": {\"n\": 1}}"))),
            T0.plusSeconds(9));
    assertThat(rejected).isEmpty();
    TaskRun run = s.taskRunGet(c.run().backendId()).orElseThrow();
    assertThat(run.status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(run.ended()).isEqualTo(T0.plusSeconds(9));
    assertThat(run.metadata().get("worker").asText()).isEqualTo("r");
    assertThat(run.metadata().get("result").get("n").asInt()).isEqualTo(1);
    assertThat(reload(s, c.task().id()).status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  default void aPassCompletesAndClaimsInOneTransaction() {
    Store s = prepared(4);
    List<Claim> first = Passes.claimStarted(s, work(s), "r", T0, LEASE, 2);
    Lease stale = new Lease(first.get(1).lease().taskId(), first.get(1).lease().attempt() + 1);
    Completion done = new Completion(first.get(0).lease(), TaskRunStatus.EVENTFUL, null);
    ClaimRequest five = new ClaimRequest(work(s), LEASE, 5, PriorityShares.DEFAULT);

    PassResult result =
        s.taskPass(
            new Pass(
                "r",
                T0,
                List.of(),
                List.of(done, new Completion(stale, TaskRunStatus.EVENTFUL, null)),
                List.of(five)));
    assertThat(result.rejected()).containsExactly(stale);
    assertThat(reload(s, first.get(0).task().id()).status()).isEqualTo(TaskStatus.COMPLETED);
    List<Claim> next = result.claimed();
    assertThat(next)
        .hasSize(2)
        .allSatisfy(
            c -> {
              assertThat(c.run().status())
                  .as("queued by the runner, not begun")
                  .isEqualTo(TaskRunStatus.SCHEDULED);
              assertThat(s.taskRunGet(c.run().backendId())).as("written once begun").isEmpty();
            });
    assertThat(s.taskHeartbeat("r", next.stream().map(Claim::lease).toList(), T0.plus(LEASE)))
        .isEmpty();

    // A pass that fails leaves everything as it was: the start, completion and claims roll back.
    Completion second = new Completion(first.get(1).lease(), TaskRunStatus.EVENTFUL, null);
    s.taskRelease("r", List.of(next.get(0).lease()), T0);
    Pass failing =
        new Pass("r", T0, List.of(new RunStarted(next.get(1), T0)), List.of(second), List.of(five));
    AtomicBoolean fail = new AtomicBoolean(true);
    try (Store probed =
        openProbed(
            new StoreProbe() {
              @Override
              public void beforeCommit() {
                if (fail.get()) {
                  throw new IllegalStateException("the commit failed");
                }
              }
            })) {
      assertThatThrownBy(() -> probed.taskPass(failing)).hasMessageContaining("the commit failed");
      fail.set(false);
    }
    assertThat(reload(s, first.get(1).task().id()).status())
        .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
    assertThat(reload(s, next.get(0).task().id()).status())
        .isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(s.taskRunGet(next.get(1).run().backendId())).as("the start rolled back").isEmpty();
    assertThat(Passes.complete(s, "r", List.of(second), T0)).isEmpty();
  }

  /**
   * A disable racing a pass that writes a begun run: whichever commits first, the run does not stay
   * started. The pass is held just before its commit while the disable runs beside it; on
   * PostgreSQL the disable used to commit meanwhile without seeing the new run.
   */
  @Test
  default void aDisableRacingThePassThatWritesARunStartStillEndsTheRun() throws Exception {
    Store s = prepared(1);
    Claim claim = Passes.claim(s, work(s), "r", T0, LEASE, 1).get(0);
    HeldCommit holdCommit = new HeldCommit();
    holdCommit.arm();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (Store probed = openProbed(holdCommit)) {
      Future<?> pass =
          threads.submit(
              () ->
                  Passes.pass(
                      probed,
                      "r",
                      T0.plusSeconds(2),
                      List.of(new RunStarted(claim, T0.plusSeconds(1))),
                      List.of()));
      assertThat(holdCommit.awaitReached(Duration.ofSeconds(30))).isTrue();
      Future<Integer> disable =
          threads.submit(
              () ->
                  s.taskSetStatus(
                      List.of(claim.task().id()),
                      TaskStatus.DISABLED,
                      null,
                      false,
                      T0.plusSeconds(3)));
      // Give the disable every chance to go ahead of the held pass, as it could before the fix.
      Thread.sleep(500);
      holdCommit.release();
      pass.get(30, TimeUnit.SECONDS);
      assertThat(disable.get(30, TimeUnit.SECONDS)).isEqualTo(1);
    } finally {
      holdCommit.release();
      threads.shutdownNow();
    }
    assertThat(s.taskRunList(List.of(claim.task().id()), null, 10))
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.status()).isEqualTo(TaskRunStatus.LOST);
              assertThat(run.metadata().get("disabled").asBoolean()).isTrue();
            });
    assertThat(reload(s, claim.task().id()).status()).isEqualTo(TaskStatus.DISABLED);
  }

  @Test
  default void aQueuedRunIsWrittenOnceBegunOrWithItsEndAndARescueRecordsItLost() {
    Store s = prepared(4);
    List<Claim> queued = Passes.claim(s, work(s), "r", T0, LEASE, 4);
    assertThat(queued).hasSize(4);
    Claim executing = queued.get(0);
    Claim finishedUnseen = queued.get(1);
    Claim released = queued.get(2);
    Claim rescued = queued.get(3);
    Instant began = T0.plusSeconds(2);

    s.taskRelease("r", List.of(released.lease()), T0.plusSeconds(1));
    Passes.pass(
        s,
        "r",
        T0.plusSeconds(3),
        List.of(new RunStarted(executing, began), new RunStarted(released, began)),
        List.of(
            new Completion(
                finishedUnseen.lease(),
                TaskRunStatus.EVENTFUL,
                null,
                T0.plusSeconds(1),
                finishedUnseen)));

    TaskRun started = s.taskRunGet(executing.run().backendId()).orElseThrow();
    assertThat(started.status()).isEqualTo(TaskRunStatus.STARTED);
    assertThat(started.started()).isEqualTo(began);
    assertThat(started.scheduled()).isEqualTo(T0);
    assertThat(started.metadata().get("worker").asText()).isEqualTo("r");
    TaskRun done = s.taskRunGet(finishedUnseen.run().backendId()).orElseThrow();
    assertThat(done.status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(done.started()).as("the start comes with the end").isEqualTo(T0.plusSeconds(1));
    assertThat(done.ended()).isEqualTo(T0.plusSeconds(3));
    assertThat(s.taskRunList(List.of(released.task().id()), null, 10))
        .as("given back before it began")
        .isEmpty();

    // A completion without a start keeps the one written before.
    Passes.complete(
        s,
        "r",
        List.of(new Completion(executing.lease(), TaskRunStatus.UNEVENTFUL, null, null, executing)),
        T0.plusSeconds(4));
    TaskRun ended = s.taskRunGet(executing.run().backendId()).orElseThrow();
    assertThat(ended.status()).isEqualTo(TaskRunStatus.UNEVENTFUL);
    assertThat(ended.started()).isEqualTo(began);

    // The runner died with a claim it never began: the rescue gives it back, nothing charged.
    Instant rescue = T0.plus(LEASE).plusSeconds(1);
    assertThat(s.taskRescueExpired(rescue, 10)).containsExactly(rescued.task().id());
    assertThat(s.taskRunGet(rescued.run().backendId())).as("it never ran").isEmpty();
    Task back = reload(s, rescued.task().id());
    assertThat(back.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(back.retriesLeft()).as("not charged").isEqualTo(rescued.task().retriesLeft());
    assertThat(back.nextRun()).as("due at once").isEqualTo(rescue);
  }

  @Test
  default void aCompletionCarryingItsClaimIsWrittenFromTheStoredRowOnceTheRowChanged() {
    Store s = prepared(2);
    List<Claim> claims = Passes.claimStarted(s, work(s), "r", T0, LEASE, 2);
    Claim untouched = claims.get(0);
    Claim heartbeated = claims.get(1);
    Instant extended = T0.plus(LEASE).plusSeconds(30);
    assertThat(s.taskHeartbeat("r", List.of(heartbeated.lease()), extended)).isEmpty();

    Instant at = T0.plusSeconds(5);
    assertThat(
            Passes.complete(
                s,
                "r",
                List.of(
                    new Completion(untouched.lease(), TaskRunStatus.FAILED, null, null, untouched),
                    new Completion(
                        heartbeated.lease(), TaskRunStatus.EVENTFUL, null, null, heartbeated)),
                at))
        .isEmpty();

    Task retried = reload(s, untouched.task().id());
    assertThat(retried.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(retried.retriesLeft()).isEqualTo(untouched.task().retriesLeft() - 1);
    Task done = reload(s, heartbeated.task().id());
    assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(done.nextRun()).as("kept as stored, not as claimed").isEqualTo(extended);
    assertThat(s.taskRunGet(heartbeated.run().backendId()).orElseThrow().status())
        .isEqualTo(TaskRunStatus.EVENTFUL);
    // Written once: a second completion of the same lease is refused either way.
    assertThat(
            Passes.complete(
                s,
                "r",
                List.of(
                    new Completion(
                        untouched.lease(), TaskRunStatus.EVENTFUL, null, null, untouched)),
                at))
        .containsExactly(untouched.lease());
  }

  @Test
  default void anExpiredLeaseIsRescuedAsALostAttemptAndTheOldOwnerIsFencedOut() {
    Store s = prepared(1);
    Claim old = Passes.claimStarted(s, work(s), "crashed", T0, LEASE, 1).get(0);
    assertThat(s.taskRescueExpired(T0.plus(LEASE).minusMillis(1), 10))
        .as("not expired yet")
        .isEmpty();

    Instant expiry = T0.plus(LEASE);
    assertThat(s.taskRescueExpired(expiry, 10)).containsExactly(old.task().id());
    TaskRun lost = s.taskRunGet(old.run().backendId()).orElseThrow();
    assertThat(lost.status()).isEqualTo(TaskRunStatus.LOST);
    assertThat(lost.metadata().get("rescued").asBoolean()).isTrue();
    Task after = reload(s, old.task().id());
    assertThat(after.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(after.retriesLeft()).as("charged as a failed attempt").isZero();
    assertThat(after.nextRun()).isEqualTo(expiry.plus(Duration.ofMinutes(5)));

    // Someone else claims it again; the old owner can neither heartbeat, complete nor release it.
    Instant later = after.nextRun();
    Claim next = Passes.claim(s, work(s), "fresh", later, LEASE, 1).get(0);
    assertThat(next.lease().attempt()).isEqualTo(2);
    assertThat(s.taskHeartbeat("crashed", List.of(old.lease()), later.plus(LEASE)))
        .containsExactly(old.lease());
    Passes.start(s, "crashed", List.of(old), later);
    assertThat(
            Passes.complete(
                s,
                "crashed",
                List.of(new Completion(old.lease(), TaskRunStatus.EVENTFUL, null)),
                later))
        .containsExactly(old.lease());
    assertThat(s.taskRelease("crashed", List.of(old.lease()), later)).isZero();
    assertThat(s.taskRunGet(old.run().backendId()).orElseThrow().status())
        .isEqualTo(TaskRunStatus.LOST);
    assertThat(reload(s, next.task().id()).status()).isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);

    assertThat(s.taskRunGet(next.run().backendId())).as("queued, not written").isEmpty();
    assertThat(
            Passes.complete(
                s,
                "fresh",
                List.of(new Completion(next.lease(), TaskRunStatus.UNEVENTFUL, null)),
                later))
        .isEmpty();
    assertThat(s.taskRunGet(next.run().backendId()).orElseThrow().status())
        .as("written whole with its end")
        .isEqualTo(TaskRunStatus.UNEVENTFUL);
    assertThat(reload(s, next.task().id()).status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  default void aRescuedLeaseWithoutRetriesDisablesAOneshotTask() {
    Store s = prepared(1);
    Claim c = Passes.claimStarted(s, work(s), "r", T0, LEASE, 1).get(0);
    s.taskRescueExpired(T0.plus(LEASE), 10);
    Claim again =
        Passes.claimStarted(s, work(s), "r", T0.plus(Duration.ofHours(1)), LEASE, 1).get(0);
    s.taskRescueExpired(T0.plus(Duration.ofHours(2)), 10);
    assertThat(again.task().id()).isEqualTo(c.task().id());
    assertThat(reload(s, c.task().id()).status()).isEqualTo(TaskStatus.DISABLED);
  }

  @Test
  default void aRescuedClaimThatNoWorkerBeganIsGivenBackUnchargedEvenWithoutRetries() {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("once").intervals(Duration.ofHours(1), null, null).build());
    s.taskCreate(List.of(NewTask.oneshot("once", TaskArguments.of(List.of(), null))), T0);
    Claim c = Passes.claim(s, s.taskTypeGet("once").orElseThrow(), "dead", T0, LEASE, 1).get(0);
    // Its runner was SIGKILLed before a worker began it; another leads and rescues, many times.
    for (int i = 1; i <= 3; i++) {
      Instant at = T0.plus(LEASE.multipliedBy(2L * i));
      assertThat(s.taskRescueExpired(at, 10)).containsExactly(c.task().id());
      Task back = reload(s, c.task().id());
      assertThat(back.status())
          .as("never ran: not disabled")
          .isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
      assertThat(back.nextRun()).isEqualTo(at);
      assertThat(s.taskRunList(List.of(c.task().id()), null, 10)).as("no run").isEmpty();
      Passes.claim(s, s.taskTypeGet("once").orElseThrow(), "dead", at, LEASE, 1);
    }
    // Whereas one that began (its start written) is lost and charged: without retries, disabled.
    Instant end = T0.plus(Duration.ofHours(1));
    s.taskRescueExpired(end, 10);
    Claim begun =
        Passes.claimStarted(s, s.taskTypeGet("once").orElseThrow(), "dead", end, LEASE, 1).get(0);
    s.taskRescueExpired(end.plus(LEASE), 10);
    assertThat(s.taskRunGet(begun.run().backendId()).orElseThrow().status())
        .isEqualTo(TaskRunStatus.LOST);
    assertThat(reload(s, c.task().id()).status()).isEqualTo(TaskStatus.DISABLED);
  }

  @Test
  default void disablingALeasedTaskEndsItsRunUnchargedAndFencesItsOwnerOut() {
    Store s = prepared(2);
    List<Claim> claims = Passes.claim(s, work(s), "r", T0, LEASE, 2);
    Claim begun = claims.get(0);
    Claim queued = claims.get(1);
    Passes.start(s, "r", List.of(begun), T0.plusSeconds(1));
    Instant at = T0.plusSeconds(2);
    assertThat(
            s.taskSetStatus(
                List.of(begun.task().id(), queued.task().id()),
                TaskStatus.DISABLED,
                null,
                false,
                at))
        .isEqualTo(2);

    TaskRun ended = s.taskRunGet(begun.run().backendId()).orElseThrow();
    assertThat(ended.status()).isEqualTo(TaskRunStatus.LOST);
    assertThat(ended.ended()).isEqualTo(at);
    assertThat(ended.metadata().get("disabled").asBoolean()).isTrue();
    assertThat(s.taskRunGet(queued.run().backendId())).as("never begun: no run").isEmpty();
    for (Claim c : claims) {
      Task t = reload(s, c.task().id());
      assertThat(t.status()).isEqualTo(TaskStatus.DISABLED);
      assertThat(t.retriesLeft()).as("nothing charged").isEqualTo(c.task().retriesLeft());
    }
    // The runner that held them: its heartbeat finds the leases gone, its late writes are fenced.
    assertThat(s.taskHeartbeat("r", List.of(begun.lease(), queued.lease()), at.plus(LEASE)))
        .containsExactlyInAnyOrder(begun.lease(), queued.lease());
    Passes.start(s, "r", List.of(queued), at);
    assertThat(s.taskRunGet(queued.run().backendId())).isEmpty();
    assertThat(
            Passes.complete(
                s,
                "r",
                List.of(new Completion(begun.lease(), TaskRunStatus.EVENTFUL, null, null, begun)),
                at))
        .containsExactly(begun.lease());
    assertThat(s.taskRunGet(begun.run().backendId()).orElseThrow().status())
        .isEqualTo(TaskRunStatus.LOST);
    assertThat(s.taskRescueExpired(at.plus(Duration.ofDays(1)), 10)).as("nothing leased").isEmpty();
  }

  @Test
  default void aReleaseGivesTheTaskBackWithoutChargingIt() {
    Store s = prepared(1);
    Claim c = Passes.claimStarted(s, work(s), "r", T0, LEASE, 1).get(0);
    assertThat(s.taskRelease("r", List.of(c.lease()), T0.plusSeconds(3))).isEqualTo(1);
    Task after = reload(s, c.task().id());
    assertThat(after.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(after.nextRun()).isEqualTo(T0.plusSeconds(3));
    assertThat(after.retriesLeft()).isEqualTo(1);
    TaskRun run = s.taskRunGet(c.run().backendId()).orElseThrow();
    assertThat(run.status()).isEqualTo(TaskRunStatus.LOST);
    assertThat(run.metadata().get("released").asBoolean()).isTrue();
    assertThat(s.taskRescueExpired(T0.plus(Duration.ofDays(1)), 10))
        .as("a released task is not leased")
        .isEmpty();
  }

  @Test
  default void concurrentClaimersAndARescuerNeverRunATaskTwiceAtOnce() throws Exception {
    Store s = prepared(2_000);
    ConcurrentLinkedQueue<Lease> completedLeases = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Lease> rejectedLeases = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        String owner = "runner-" + w;
        workers.add(
            pool.submit(
                () -> {
                  start.await();
                  List<Claim> got;
                  int round = 0;
                  while (!(got = Passes.claim(s, work(s), owner, T0, LEASE, 25)).isEmpty()) {
                    // Every third batch is "slow": it completes after its lease has been rescued.
                    Instant at =
                        ++round % 3 == 0 ? T0.plus(LEASE).plusSeconds(1) : T0.plusSeconds(1);
                    if (round % 3 == 0) {
                      s.taskRescueExpired(at, 1_000);
                    }
                    List<Completion> done =
                        got.stream()
                            .map(
                                c ->
                                    new Completion(
                                        c.lease(), TaskRunStatus.EVENTFUL, null, null, c))
                            .toList();
                    List<Lease> rejected = Passes.complete(s, owner, done, at);
                    rejectedLeases.addAll(rejected);
                    got.stream()
                        .map(Claim::lease)
                        .filter(l -> !rejected.contains(l))
                        .forEach(completedLeases::add);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : workers) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    // Each task was completed by exactly one lease; a rescued lease's late completion was refused.
    List<Long> completedTasks = completedLeases.stream().map(Lease::taskId).toList();
    assertThat(new HashSet<>(completedTasks)).hasSize(completedTasks.size());
    assertThat(rejectedLeases).allSatisfy(l -> assertThat(completedLeases).doesNotContain(l));
    long completedOrDisabled =
        s.taskCountByTypeAndStatus().stream()
            .filter(c -> c.status() == TaskStatus.COMPLETED || c.status() == TaskStatus.DISABLED)
            .mapToLong(c -> c.count())
            .sum();
    assertThat(
            completedOrDisabled
                + s.taskPeekReady("work", T0.plus(Duration.ofDays(1)), 10_000).size())
        .isEqualTo(2_000);
  }
}
