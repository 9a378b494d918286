package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.NewTask;
import dev.drover.model.RunnerRecord;
import dev.drover.model.RunnerState;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The process table, the gate's unique active runner, leader leases, taking back a dead runner's
 * leases, and wake-ups on new work. Mixed into {@link StoreContractTest}, so it runs on every
 * database.
 */
interface RunnerTableContract {
  Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  Store store();

  /** Opens a second store on the same database, as another process would. */
  Store openAnother();

  private static RunnerRecord waiting(String name, String gate) {
    return new RunnerRecord(
        name, "host-a", 100, NOW.minusSeconds(5), gate, RunnerState.WAITING, NOW, NOW, null, null);
  }

  @Test
  default void aRegisteredRunnerIsListedAndCanBeRemoved() {
    RunnerTable t = store().runners();
    t.register(waiting("r1", "host-a:/data"));
    RunnerRecord r = t.get("r1").orElseThrow();
    assertThat(r).isEqualTo(waiting("r1", "host-a:/data"));
    assertThat(t.list()).containsExactly(r);
    assertThat(t.remove("r1")).isTrue();
    assertThat(t.remove("r1")).isFalse();
    assertThat(t.list()).isEmpty();
  }

  @Test
  default void onlyOneRunnerIsActivePerGate() {
    RunnerTable t = store().runners();
    t.register(waiting("a", "g"));
    t.register(waiting("b", "g"));
    t.register(waiting("c", "other"));
    assertThat(t.activate("a", NOW)).isTrue();
    assertThat(t.activate("b", NOW)).isFalse();
    assertThat(t.activate("c", NOW)).isTrue();
    assertThat(t.active("g").orElseThrow().name()).isEqualTo("a");
    assertThat(t.get("b").orElseThrow().state()).isEqualTo(RunnerState.WAITING);
    // Activating again is harmless, and once the active runner has gone the next one gets in.
    assertThat(t.activate("a", NOW)).isTrue();
    t.remove("a");
    assertThat(t.activate("b", NOW.plusSeconds(1))).isTrue();
    assertThat(t.active("g").orElseThrow().name()).isEqualTo("b");
  }

  @Test
  default void runnersWithoutAGateAreAllActive() {
    RunnerTable t = store().runners();
    for (String name : List.of("x", "y", "z")) {
      t.register(waiting(name, null));
      assertThat(t.activate(name, NOW)).isTrue();
    }
    assertThat(t.list()).extracting(RunnerRecord::state).containsOnly(RunnerState.ACTIVE);
  }

  /** What one racer does with its store, its index and the round. */
  interface Race {
    boolean run(Store store, int racer, int round);
  }

  /**
   * Races 8 threads, on this store and another one on the same database, 5 rounds; returns how many
   * won each round.
   */
  private List<Integer> race(Race prepare, Race attempt) throws Exception {
    int racers = 8;
    List<Store> stores = List.of(store(), openAnother());
    ExecutorService pool = Executors.newFixedThreadPool(racers);
    List<Integer> winners = new ArrayList<>();
    try {
      for (int round = 0; round < 5; round++) {
        int r = round;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
          Store s = stores.get(i % stores.size());
          int racer = i;
          prepare.run(s, racer, r);
          results.add(
              pool.submit(
                  () -> {
                    go.await();
                    return attempt.run(s, racer, r);
                  }));
        }
        go.countDown();
        int won = 0;
        for (Future<Boolean> f : results) {
          won += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
        }
        winners.add(won);
      }
    } finally {
      pool.shutdownNow();
      stores.get(1).close();
    }
    return winners;
  }

  @Test
  default void racingNewcomersActivateExactlyOnce() throws Exception {
    List<Integer> winners =
        race(
            (s, racer, round) -> {
              s.runners().register(waiting("race-" + round + "-" + racer, "race-" + round));
              return true;
            },
            (s, racer, round) -> s.runners().activate("race-" + round + "-" + racer, NOW));
    assertThat(winners).containsOnly(1);
    for (int round = 0; round < 5; round++) {
      assertThat(store().runners().active("race-" + round)).isPresent();
    }
  }

  @Test
  default void aHeartbeatRecordsTheTimeAndReportsAStopRequest() {
    RunnerTable t = store().runners();
    t.register(waiting("old", "g"));
    t.activate("old", NOW);
    assertThat(t.heartbeat("old", NOW.plusSeconds(3)).orElseThrow().heartbeat())
        .isEqualTo(NOW.plusSeconds(3));
    assertThat(t.requestStop("old", "new", NOW.plusSeconds(8))).isTrue();
    RunnerRecord r = t.heartbeat("old", NOW.plusSeconds(4)).orElseThrow();
    assertThat(r.stopRequestedBy()).isEqualTo("new");
    assertThat(r.stopDeadline()).isEqualTo(NOW.plusSeconds(8));
    t.remove("old");
    assertThat(t.heartbeat("old", NOW.plusSeconds(5))).isEmpty();
    assertThat(t.requestStop("old", "new", NOW.plusSeconds(8))).isFalse();
  }

  @Test
  default void theLeaderLeaseIsHeldRenewedAndTakenOnlyWhenExpired() {
    RunnerTable t = store().runners();
    Duration lease = Duration.ofSeconds(15);
    assertThat(t.leaderAcquire("svc", "a", NOW, NOW.plus(lease))).isTrue();
    assertThat(t.leaderAcquire("svc", "b", NOW.plusSeconds(1), NOW.plusSeconds(1).plus(lease)))
        .isFalse();
    assertThat(t.leaderAcquire("svc", "a", NOW.plusSeconds(5), NOW.plusSeconds(5).plus(lease)))
        .isTrue();
    assertThat(t.leader("svc").orElseThrow().leaseUntil()).isEqualTo(NOW.plusSeconds(20));
    // One second before the renewed lease ends, b still cannot take it; at the end it can.
    assertThat(t.leaderAcquire("svc", "b", NOW.plusSeconds(19), NOW.plusSeconds(34))).isFalse();
    assertThat(t.leaderAcquire("svc", "b", NOW.plusSeconds(20), NOW.plusSeconds(35))).isTrue();
    assertThat(t.leader("svc").orElseThrow().holder()).isEqualTo("b");
    assertThat(t.leaderAcquire("svc", "a", NOW.plusSeconds(21), NOW.plusSeconds(36))).isFalse();
    // Release by a non-holder changes nothing; by the holder frees it at once.
    t.leaderRelease("svc", "a");
    assertThat(t.leader("svc").orElseThrow().holder()).isEqualTo("b");
    t.leaderRelease("svc", "b");
    assertThat(t.leader("svc")).isEmpty();
    assertThat(t.leaderAcquire("svc", "a", NOW.plusSeconds(22), NOW.plusSeconds(37))).isTrue();
    // Services are independent.
    assertThat(t.leaderAcquire("other", "b", NOW.plusSeconds(22), NOW.plusSeconds(37))).isTrue();
  }

  @Test
  default void racingRunnersGetOneLeader() throws Exception {
    List<Integer> leaders =
        race(
            (s, racer, round) -> true,
            (s, racer, round) ->
                s.runners()
                    .leaderAcquire("svc-" + round, "racer-" + racer, NOW, NOW.plusSeconds(15)));
    assertThat(leaders).containsOnly(1);
  }

  private Store withTasks(int n) {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("work").numRetries(3).retryDelay(Duration.ofMinutes(5)).build());
    s.taskCreate(
        IntStream.range(0, n)
            .mapToObj(
                i ->
                    NewTask.oneshot("work", TaskArguments.of(List.of(i), null))
                        .withNextRun(NOW.minusSeconds(10)))
            .toList(),
        NOW);
    return s;
  }

  @Test
  default void aDeadRunnersLeasesAreRescuedAsFailedAttempts() {
    Store s = withTasks(3);
    List<Claim> dead =
        Passes.claimStarted(s, LeaseContract.work(s), "dead", NOW, LeaseContract.LEASE, 2);
    List<Claim> alive =
        Passes.claimStarted(s, LeaseContract.work(s), "alive", NOW, LeaseContract.LEASE, 1);
    List<Long> rescued = s.taskRescueOwner("dead", NOW.plusSeconds(1), true);
    assertThat(rescued)
        .containsExactlyInAnyOrderElementsOf(dead.stream().map(c -> c.task().id()).toList());
    for (Claim c : dead) {
      Task t = s.taskGet(List.of(c.task().id())).get(0);
      assertThat(t.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
      assertThat(t.retriesLeft()).isEqualTo(2);
      assertThat(t.nextRun()).isEqualTo(NOW.plusSeconds(1).plus(Duration.ofMinutes(5)));
      TaskRun run = s.taskRunGet(c.run().backendId()).orElseThrow();
      assertThat(run.status()).isEqualTo(TaskRunStatus.LOST);
      assertThat(run.metadata().path("rescued").asBoolean()).isTrue();
    }
    // The other runner's lease is untouched, and rescuing the gone runner again finds nothing.
    Task other = s.taskGet(List.of(alive.get(0).task().id())).get(0);
    assertThat(other.status()).isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
    assertThat(s.taskRescueOwner("dead", NOW.plusSeconds(2), true)).isEmpty();
  }

  @Test
  default void aKilledRunnersLeasesAreReleasedWithoutCharge() {
    Store s = withTasks(2);
    List<Claim> claims =
        Passes.claimStarted(s, LeaseContract.work(s), "killed", NOW, LeaseContract.LEASE, 2);
    assertThat(s.taskRescueOwner("killed", NOW.plusSeconds(1), false)).hasSize(2);
    for (Claim c : claims) {
      Task t = s.taskGet(List.of(c.task().id())).get(0);
      assertThat(t.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
      assertThat(t.retriesLeft()).isEqualTo(3);
      assertThat(t.nextRun()).isEqualTo(NOW.plusSeconds(1));
      assertThat(
              s.taskRunGet(c.run().backendId())
                  .orElseThrow()
                  .metadata()
                  .path("released")
                  .asBoolean())
          .isTrue();
    }
  }

  @Test
  default void newWorkWakesListenersInThisAndOtherStores() throws Exception {
    Store s = withTasks(0);
    Semaphore here = new Semaphore(0);
    Semaphore there = new Semaphore(0);
    try (Store other = openAnother();
        AutoCloseable a = s.onWork(here::release);
        AutoCloseable b = other.onWork(there::release)) {
      drain(here, there);
      other.taskCreate(
          List.of(NewTask.oneshot("work", TaskArguments.of(List.of("new"), null))), NOW);
      assertThat(here.tryAcquire(10, TimeUnit.SECONDS)).as("listener of this store woken").isTrue();
      assertThat(there.tryAcquire(10, TimeUnit.SECONDS))
          .as("listener of the writing store woken")
          .isTrue();
      // A closed subscription hears nothing more.
      a.close();
      drain(here, there);
      other.taskCreate(
          List.of(NewTask.oneshot("work", TaskArguments.of(List.of("newer"), null))), NOW);
      assertThat(there.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
      assertThat(here.tryAcquire(300, TimeUnit.MILLISECONDS)).isFalse();
    }
  }

  /**
   * Waits for wake-ups already under way (a listener calls once when it starts) and forgets them.
   */
  private static void drain(Semaphore... semaphores) throws InterruptedException {
    Thread.sleep(300);
    for (Semaphore s : semaphores) {
      s.drainPermits();
    }
  }
}
