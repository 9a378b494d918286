package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Json;
import dev.drover.model.ChildrenRule;
import dev.drover.model.NewTask;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Pause, resume, cancel, retry and delete, on tasks, trees and task types, and racing with claims
 * from several threads. Mixed into {@link StoreContractTest}, so it runs on every database.
 */
interface OperatorContract {
  Store store();

  private static Instant t0() {
    return LeaseContract.T0;
  }

  private static NewTask task(String type, int i) {
    return NewTask.oneshot(type, TaskArguments.of(List.of(i), null)).withNextRun(t0());
  }

  private static TaskType type(Store s, String name) {
    s.taskTypeCreate(TaskType.builder(name).childrenRule(ChildrenRule.ALL_SUCCEEDED).build());
    return s.taskTypeGet(name).orElseThrow();
  }

  private Task get(long id) {
    return store().taskGet(List.of(id)).get(0);
  }

  /** A parent waiting for two children; returns {parent, child, child}. */
  private List<Long> tree(Store s) {
    TaskType crawl = type(s, "crawl");
    type(s, "page");
    long parent = s.taskCreate(List.of(task("crawl", 0)), t0()).get(0).id();
    Claim c = Passes.claim(s, crawl, "r", t0(), LeaseContract.LEASE, 1).get(0);
    Passes.complete(
        s,
        "r",
        List.of(
            new Completion(
                c.lease(),
                TaskRunStatus.EVENTFUL,
                Json.object(),
                t0(),
                c,
                List.of(task("page", 1), task("page", 2)))),
        t0());
    List<Long> ids = new ArrayList<>(List.of(parent));
    s.taskChildren(parent, 0, 10).forEach(t -> ids.add(t.id()));
    return ids;
  }

  @Test
  default void aPausedTreeIsNotClaimedUntilResumed() {
    Store s = store();
    List<Long> ids = tree(s);
    TaskType page = s.taskTypeGet("page").orElseThrow();

    assertThat(s.taskPause(List.of(ids.get(0)), true)).as("the waiting parent stays").isEqualTo(2);
    assertThat(get(ids.get(1)).status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(Passes.claim(s, page, "r", t0(), LeaseContract.LEASE, 5)).isEmpty();

    assertThat(s.taskResume(List.of(ids.get(0)), true)).isEqualTo(2);
    assertThat(Passes.claim(s, page, "r", t0(), LeaseContract.LEASE, 5)).hasSize(2);
  }

  @Test
  default void aTreePausedWhileItsParentRunsGetsItsChildrenPaused() {
    Store s = store();
    TaskType crawl = type(s, "crawl");
    TaskType page = type(s, "page");
    long parent = s.taskCreate(List.of(task("crawl", 0)), t0()).get(0).id();
    Claim c = Passes.claim(s, crawl, "r", t0(), LeaseContract.LEASE, 1).get(0);

    assertThat(s.taskPause(List.of(parent), true)).as("running: marked, left to finish").isOne();
    Passes.complete(
        s,
        "r",
        List.of(
            new Completion(
                c.lease(),
                TaskRunStatus.EVENTFUL,
                Json.object(),
                t0(),
                c,
                List.of(task("page", 1), task("page", 2)))),
        t0());
    assertThat(s.taskChildren(parent, 0, 10))
        .hasSize(2)
        .allSatisfy(t -> assertThat(t.status()).isEqualTo(TaskStatus.PAUSED));
    assertThat(Passes.claim(s, page, "r", t0(), LeaseContract.LEASE, 5)).isEmpty();

    assertThat(s.taskResume(List.of(parent), true))
        .as("the two children, and their parent unmarked")
        .isEqualTo(3);
    assertThat(Passes.claim(s, page, "r", t0(), LeaseContract.LEASE, 5)).hasSize(2);
  }

  @Test
  default void aTaskPausedWhileItRunsFinishesItsRunAndIsPausedThen() {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("poll").defaultInterval(Duration.ofMinutes(1)).build());
    TaskType poll = s.taskTypeGet("poll").orElseThrow();
    long id =
        s.taskCreate(
                List.of(
                    NewTask.recurring("poll", TaskArguments.of(List.of(1), null))
                        .withNextRun(t0())),
                t0())
            .get(0)
            .id();
    Claim c = Passes.claimStarted(s, poll, "r", t0(), LeaseContract.LEASE, 1).get(0);

    assertThat(s.taskPause(List.of(id), false)).isOne();
    assertThat(get(id).status())
        .as("its lease still holds")
        .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
    assertThat(
            Passes.complete(
                s,
                "r",
                List.of(
                    new Completion(
                        c.lease(), TaskRunStatus.EVENTFUL, Json.object(), t0(), c, null)),
                t0()))
        .as("the run's end is written")
        .isEmpty();
    assertThat(get(id).status()).isEqualTo(TaskStatus.PAUSED);
    Instant later = t0().plus(Duration.ofHours(1));
    assertThat(Passes.claim(s, poll, "r", later, LeaseContract.LEASE, 1)).isEmpty();

    assertThat(s.taskResume(List.of(id), false)).isOne();
    assertThat(Passes.claim(s, poll, "r", later, LeaseContract.LEASE, 1)).hasSize(1);
  }

  @Test
  default void aPausedTypeIsNotClaimedAndRunningWorkFinishes() {
    Store s = store();
    TaskType work = type(s, "work");
    s.taskCreate(List.of(task("work", 1), task("work", 2)), t0());
    Claim running = Passes.claim(s, work, "r", t0(), LeaseContract.LEASE, 1).get(0);

    assertThat(s.taskCountOutstanding(List.of("work"), t0())).isEqualTo(2);
    assertThat(s.taskTypePause("work", true)).isTrue();
    assertThat(s.taskCountOutstanding(List.of("work"), t0()))
        .as("a runner exiting when idle waits for the running task only")
        .isEqualTo(1);
    assertThat(s.taskTypePause("nope", true)).isFalse();
    assertThat(Passes.claim(s, work, "r", t0(), LeaseContract.LEASE, 5)).isEmpty();
    List<Lease> rejected =
        Passes.complete(
            s,
            "r",
            List.of(
                new Completion(
                    running.lease(), TaskRunStatus.EVENTFUL, Json.object(), t0(), running)),
            t0());
    assertThat(rejected).isEmpty();
    assertThat(get(running.task().id()).status()).isEqualTo(TaskStatus.COMPLETED);

    s.taskTypePause("work", false);
    assertThat(Passes.claim(s, work, "r", t0(), LeaseContract.LEASE, 5)).hasSize(1);
  }

  @Test
  default void theOpenRunsAreListedByOwnerAndThePausedTypesByName() {
    Store s = store();
    TaskType work = type(s, "work");
    type(s, "idle");
    s.taskCreate(List.of(task("work", 1), task("work", 2), task("work", 3)), t0());
    Claim b = Passes.claimStarted(s, work, "runner-b", t0(), LeaseContract.LEASE, 1).get(0);
    Claim a = Passes.claimStarted(s, work, "runner-a", t0(), LeaseContract.LEASE, 1).get(0);
    Claim ended = Passes.claimStarted(s, work, "runner-a", t0(), LeaseContract.LEASE, 1).get(0);
    Passes.complete(
        s,
        "runner-a",
        List.of(new Completion(ended.lease(), TaskRunStatus.EVENTFUL, Json.object(), t0(), ended)),
        t0());

    List<OpenRun> open = s.taskRunOpen(10);
    assertThat(open).extracting(OpenRun::owner).containsExactly("runner-a", "runner-b");
    assertThat(open)
        .extracting(r -> r.run().taskId())
        .containsExactly(a.task().id(), b.task().id());
    assertThat(open).extracting(OpenRun::type).containsOnly("work");
    assertThat(open).extracting(r -> r.run().status()).containsOnly(TaskRunStatus.STARTED);
    assertThat(s.taskRunOpen(1)).hasSize(1);

    assertThat(s.taskTypeListPaused()).isEmpty();
    s.taskTypePause("work", true);
    s.taskTypePause("idle", true);
    assertThat(s.taskTypeListPaused()).containsExactly("idle", "work");
    s.taskTypePause("work", false);
    assertThat(s.taskTypeListPaused()).containsExactly("idle");
  }

  @Test
  default void cancellingARunningChildStopsItChargesNothingAndSealsItsParentFailed() {
    Store s = store();
    List<Long> ids = tree(s);
    TaskType page = s.taskTypeGet("page").orElseThrow();
    List<Claim> claims = Passes.claimStarted(s, page, "r", t0(), LeaseContract.LEASE, 2);
    Claim first = claims.get(0);
    Passes.complete(
        s,
        "r",
        List.of(new Completion(first.lease(), TaskRunStatus.EVENTFUL, Json.object(), null, first)),
        t0());
    Claim second = claims.get(1);

    assertThat(s.taskCancel(List.of(second.task().id()), false, t0().plusSeconds(1))).isEqualTo(1);

    TaskRun run = s.taskRunList(List.of(second.task().id()), null, 5).get(0);
    assertThat(run.status()).isEqualTo(TaskRunStatus.CANCELLED);
    assertThat(s.taskFamily(List.of(second.task().id())).get(0).disabledByOperator()).isTrue();
    assertThat(s.taskHeartbeat("r", List.of(second.lease()), t0().plusSeconds(30)))
        .as("the runner finds its lease gone")
        .containsExactly(second.lease());
    assertThat(
            Passes.complete(
                s,
                "r",
                List.of(
                    new Completion(
                        second.lease(), TaskRunStatus.EVENTFUL, Json.object(), null, second)),
                t0().plusSeconds(2)))
        .containsExactly(second.lease());
    assertThat(get(ids.get(0)).status()).isEqualTo(TaskStatus.DISABLED);
    assertThat(s.taskFamily(List.of(ids.get(0))).get(0).childrenFailed()).isEqualTo(1);
    assertThat(s.taskFamily(List.of(ids.get(0))).get(0).disabledByOperator())
        .as("failed by its rule, not by an operator")
        .isFalse();
  }

  @Test
  default void retryingAFailedChildReopensItsWaitingParent() {
    Store s = store();
    List<Long> ids = tree(s);
    TaskType page = s.taskTypeGet("page").orElseThrow();
    Claim c = Passes.claim(s, page, "r", t0(), LeaseContract.LEASE, 1).get(0);
    Passes.complete(
        s,
        "r",
        List.of(new Completion(c.lease(), TaskRunStatus.FAILED, Json.object(), t0(), c)),
        t0());
    assertThat(s.taskFamily(List.of(ids.get(0))).get(0).childrenFailed()).isEqualTo(1);

    assertThat(s.taskRetry(List.of(c.task().id(), ids.get(0)), t0().plusSeconds(5)))
        .as("the waiting parent is left alone")
        .isEqualTo(1);
    assertThat(get(c.task().id()).status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(get(c.task().id()).nextRun()).isEqualTo(t0().plusSeconds(5));
    assertThat(s.taskFamily(List.of(ids.get(0))).get(0).childrenPending()).isEqualTo(2);
    assertThat(s.taskFamily(List.of(ids.get(0))).get(0).childrenFailed()).isZero();

    List<Claim> both = Passes.claim(s, page, "r", t0().plusSeconds(5), LeaseContract.LEASE, 5);
    assertThat(both).hasSize(2);
    Passes.complete(
        s,
        "r",
        both.stream()
            .map(x -> new Completion(x.lease(), TaskRunStatus.EVENTFUL, Json.object(), t0(), x))
            .toList(),
        t0().plusSeconds(6));
    assertThat(get(ids.get(0)).status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  default void deletingATreeRemovesItsTasksAndRuns() {
    Store s = store();
    List<Long> ids = tree(s);
    TaskType page = s.taskTypeGet("page").orElseThrow();
    Passes.claimStarted(s, page, "r", t0(), LeaseContract.LEASE, 1);

    Store.TaskDeletion d = s.taskDelete(List.of(ids.get(0)), true, t0());

    assertThat(d.tasks()).isEqualTo(3);
    assertThat(d.runs())
        .extracting(Store.DeletedRun::type)
        .containsExactlyInAnyOrder("crawl", "page");
    assertThat(s.taskGet(ids)).isEmpty();
    assertThat(s.taskRunList(ids, null, 10)).isEmpty();
  }

  @Test
  default void pauseRacingClaimsFromSeveralThreadsNeverPausesAClaimedTask() throws Exception {
    Store s = store();
    TaskType work = type(s, "work");
    List<Long> ids =
        s.taskCreate(IntStream.range(0, 200).mapToObj(i -> task("work", i)).toList(), t0()).stream()
            .map(Task::id)
            .toList();
    Set<Long> claimed = race(s, work, () -> s.taskPause(ids, false));
    for (Task t : s.taskGet(ids)) {
      assertThat(t.status())
          .as("task " + t.id())
          .isEqualTo(claimed.contains(t.id()) ? TaskStatus.NEXT_RUN_SCHEDULED : TaskStatus.PAUSED);
    }
  }

  @Test
  default void cancelRacingClaimsFromSeveralThreadsCancelsEveryTaskAndFencesTheClaims()
      throws Exception {
    Store s = store();
    TaskType work = type(s, "work");
    List<Long> ids =
        s.taskCreate(IntStream.range(0, 200).mapToObj(i -> task("work", i)).toList(), t0()).stream()
            .map(Task::id)
            .toList();
    Set<Long> claimed = race(s, work, () -> s.taskCancel(ids, false, t0()));
    assertThat(s.taskGet(ids))
        .allSatisfy(t -> assertThat(t.status()).isEqualTo(TaskStatus.DISABLED));
    assertThat(s.taskHeartbeat("r", claimed.stream().map(id -> new Lease(id, 1)).toList(), t0()))
        .hasSize(claimed.size());
  }

  @Test
  default void resumeRacingClaimsFromSeveralThreadsHandsEachTaskOutOnce() throws Exception {
    Store s = store();
    TaskType work = type(s, "work");
    List<Long> ids =
        s.taskCreate(IntStream.range(0, 200).mapToObj(i -> task("work", i)).toList(), t0()).stream()
            .map(Task::id)
            .toList();
    s.taskPause(ids, false);
    Set<Long> claimed = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(5);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        all.add(
            pool.submit(
                () -> {
                  go.await();
                  while (claimed.size() < ids.size()) {
                    for (Claim c : Passes.claim(s, work, "r", t0(), LeaseContract.LEASE, 7)) {
                      assertThat(claimed.add(c.task().id())).as("claimed once").isTrue();
                    }
                  }
                  return null;
                }));
      }
      all.add(
          pool.submit(
              () -> {
                go.await();
                return s.taskResume(ids, false);
              }));
      go.countDown();
      for (Future<?> f : all) {
        f.get(60, TimeUnit.SECONDS); // a safety net against a hang, not a timing assertion
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(claimed).containsExactlyInAnyOrderElementsOf(ids);
  }

  /**
   * Four threads claim {@code type} in small batches until a claim comes back empty, while a fifth
   * runs {@code control}; returns every task claimed, asserting that none was claimed twice.
   */
  private static Set<Long> race(Store s, TaskType type, java.util.concurrent.Callable<?> control)
      throws Exception {
    Set<Long> claimed = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(5);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> all = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        all.add(
            pool.submit(
                () -> {
                  go.await();
                  List<Claim> got;
                  do {
                    got = Passes.claim(s, type, "r", t0(), LeaseContract.LEASE, 3);
                    for (Claim c : got) {
                      assertThat(claimed.add(c.task().id())).as("claimed once").isTrue();
                    }
                  } while (!got.isEmpty());
                  return null;
                }));
      }
      all.add(
          pool.submit(
              () -> {
                go.await();
                return control.call();
              }));
      go.countDown();
      for (Future<?> f : all) {
        f.get(60, TimeUnit.SECONDS); // a safety net against a hang, not a timing assertion
      }
    } finally {
      pool.shutdownNow();
    }
    return claimed;
  }
}
