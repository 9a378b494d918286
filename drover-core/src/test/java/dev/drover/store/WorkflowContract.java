package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.model.ChildrenRule;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Children written with their parent's run end, fenced by its lease; a parent waits for them and is
 * sealed by its type's rule, once, up a nested tree. Mixed into {@link StoreContractTest}, so it
 * runs on every database.
 */
interface WorkflowContract {

  Store store();

  private static NewTask child(String type, int i) {
    return NewTask.oneshot(type, TaskArguments.of(List.of(i), null)).withNextRun(LeaseContract.T0);
  }

  private static TaskType type(Store s, String name, ChildrenRule rule) {
    s.taskTypeCreate(TaskType.builder(name).childrenRule(rule).build());
    return s.taskTypeGet(name).orElseThrow();
  }

  /** Claims one task of {@code type} and ends it with {@code status}, spawning {@code spawns}. */
  private static List<Lease> run(
      Store s, TaskType type, TaskRunStatus status, List<NewTask> spawns, Instant at) {
    List<Claim> claims = Passes.claim(s, type, "r", at, LeaseContract.LEASE, 1);
    assertThat(claims).hasSize(1);
    Claim c = claims.get(0);
    return Passes.complete(
        s, "r", List.of(new Completion(c.lease(), status, Json.object(), at, c, spawns)), at);
  }

  private Task task(long id) {
    return store().taskGet(List.of(id)).get(0);
  }

  private TaskFamily family(long id) {
    return store().taskFamily(List.of(id)).get(0);
  }

  @Test
  default void aParentWaitsForItsChildrenAndIsSealedWhenTheLastEnds() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    TaskType page = type(s, "page", ChildrenRule.ALL_SUCCEEDED);
    long parent = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();

    run(
        s,
        crawl,
        TaskRunStatus.EVENTFUL,
        List.of(child("page", 1), child("page", 2)),
        LeaseContract.T0);

    assertThat(task(parent).status()).isEqualTo(TaskStatus.WAITING_FOR_CHILDREN);
    List<Task> kids = s.taskChildren(parent, 0, 10);
    assertThat(kids).hasSize(2).allSatisfy(k -> assertThat(k.type()).isEqualTo("page"));
    assertThat(s.taskFamily(kids.stream().map(Task::id).toList()))
        .allSatisfy(
            f -> {
              assertThat(f.parent()).isEqualTo(parent);
              assertThat(f.root()).isEqualTo(parent);
            });
    assertThat(family(parent).childrenPending()).isEqualTo(2);
    assertThat(Passes.claim(s, crawl, "r", LeaseContract.T0.plusSeconds(1), LeaseContract.LEASE, 5))
        .as("a waiting parent is not due")
        .isEmpty();

    run(s, page, TaskRunStatus.EVENTFUL, List.of(), LeaseContract.T0.plusSeconds(2));
    assertThat(task(parent).status()).isEqualTo(TaskStatus.WAITING_FOR_CHILDREN);
    assertThat(family(parent).childrenPending()).isEqualTo(1);

    run(s, page, TaskRunStatus.UNEVENTFUL, List.of(), LeaseContract.T0.plusSeconds(3));
    assertThat(task(parent).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(family(parent).childrenPending()).isZero();
  }

  @Test
  default void tasksAddedUnderAnAwaitingParentAreWaitedForToo() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    TaskType page = type(s, "page", ChildrenRule.ALL_SUCCEEDED);
    long parent = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();
    run(s, crawl, TaskRunStatus.EVENTFUL, List.of(child("page", 1)), LeaseContract.T0);

    List<Task> added =
        s.taskCreateChildren(parent, List.of(child("page", 2), child("page", 3)), LeaseContract.T0);
    assertThat(added).extracting(Task::type).containsExactly("page", "page");
    assertThat(s.taskFamily(added.stream().map(Task::id).toList()))
        .allSatisfy(f -> assertThat(f.parent()).isEqualTo(parent));
    assertThat(family(parent).childrenPending()).isEqualTo(3);
    assertThat(family(parent).childrenTotal()).isEqualTo(3);

    for (int i = 1; i <= 2; i++) {
      run(s, page, TaskRunStatus.EVENTFUL, List.of(), LeaseContract.T0.plusSeconds(i));
      assertThat(task(parent).status()).isEqualTo(TaskStatus.WAITING_FOR_CHILDREN);
    }
    run(s, page, TaskRunStatus.EVENTFUL, List.of(), LeaseContract.T0.plusSeconds(3));
    assertThat(task(parent).status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  default void aDoneOneshotParentTakesAddedTasksIntoItsTreeAndStaysSealed() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    type(s, "page", ChildrenRule.ALL_SUCCEEDED);
    long parent = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();
    run(s, crawl, TaskRunStatus.EVENTFUL, List.of(), LeaseContract.T0);
    assertThat(task(parent).status()).isEqualTo(TaskStatus.COMPLETED);

    long kid =
        s.taskCreateChildren(parent, List.of(child("page", 1)), LeaseContract.T0).get(0).id();
    assertThat(task(parent).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(family(kid).root()).isEqualTo(parent);
    assertThat(s.taskCountByRoot(parent))
        .containsEntry(TaskStatus.COMPLETED, 1L)
        .containsEntry(TaskStatus.NEXT_RUN_NOT_SCHEDULED, 1L);
  }

  @Test
  default void aParentThatHasNotRunOrRecursTakesNoAddedTasks() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    type(s, "page", ChildrenRule.ALL_SUCCEEDED);
    long waiting = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();
    long running = s.taskCreate(List.of(child("crawl", 1)), LeaseContract.T0).get(0).id();
    Passes.claim(s, crawl, "r", LeaseContract.T0, LeaseContract.LEASE, 1);
    long before = s.taskCountByTypeAndStatus().stream().mapToLong(c -> c.count()).sum();

    for (long parent : new long[] {waiting, running, 999_999}) {
      assertThatThrownBy(
              () -> s.taskCreateChildren(parent, List.of(child("page", 1)), LeaseContract.T0))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("parent");
    }
    assertThatThrownBy(
            () -> s.taskCreateChildren(waiting, List.of(child("nosuchtype", 1)), LeaseContract.T0))
        .isInstanceOf(ValidationException.class);
    assertThat(s.taskCountByTypeAndStatus().stream().mapToLong(c -> c.count()).sum())
        .as("nothing written")
        .isEqualTo(before);
    assertThat(family(waiting).childrenTotal()).isZero();
    assertThat(family(running).childrenTotal()).isZero();
  }

  @Test
  default void theRuleDecidesTheSealedOutcome() {
    Store s = store();
    TaskType all = type(s, "all", ChildrenRule.ALL_SUCCEEDED);
    TaskType any = type(s, "any", ChildrenRule.ANY_SUCCEEDED);
    TaskType leaf = type(s, "leaf", ChildrenRule.ALL_SUCCEEDED);
    long a = s.taskCreate(List.of(child("all", 0)), LeaseContract.T0).get(0).id();
    long b = s.taskCreate(List.of(child("any", 0)), LeaseContract.T0).get(0).id();
    run(
        s,
        all,
        TaskRunStatus.EVENTFUL,
        List.of(child("leaf", 1), child("leaf", 2)),
        LeaseContract.T0);
    run(
        s,
        any,
        TaskRunStatus.EVENTFUL,
        List.of(child("leaf", 3), child("leaf", 4)),
        LeaseContract.T0);

    // Leaves have no retries: a failure is final. Each parent gets one success, one failure.
    List<Claim> leaves = Passes.claim(s, leaf, "r", LeaseContract.T0, LeaseContract.LEASE, 4);
    assertThat(leaves).hasSize(4);
    List<Completion> ends = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Claim c = leaves.get(i);
      TaskRunStatus st = i % 2 == 0 ? TaskRunStatus.EVENTFUL : TaskRunStatus.FAILED;
      ends.add(new Completion(c.lease(), st, Json.object(), LeaseContract.T0, c));
    }
    assertThat(Passes.complete(s, "r", ends, LeaseContract.T0.plusSeconds(1))).isEmpty();

    assertThat(task(a).status()).as("all_succeeded with a failure").isEqualTo(TaskStatus.DISABLED);
    assertThat(family(a).disabledByOperator()).isFalse();
    assertThat(family(a).childrenFailed()).isEqualTo(1);
    assertThat(task(b).status()).as("any_succeeded with a success").isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  default void aLostLeaseSpawnsNothingAndAFailedRunSpawnsNothing() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    type(s, "page", ChildrenRule.ALL_SUCCEEDED);
    long parent = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();
    Claim c = Passes.claim(s, crawl, "r", LeaseContract.T0, LeaseContract.LEASE, 1).get(0);
    Lease stale = new Lease(c.lease().taskId(), c.lease().attempt() + 1);

    List<Lease> rejected =
        Passes.complete(
            s,
            "r",
            List.of(
                new Completion(
                    stale,
                    TaskRunStatus.EVENTFUL,
                    Json.object(),
                    LeaseContract.T0,
                    null,
                    List.of(child("page", 1)))),
            LeaseContract.T0);
    assertThat(rejected).containsExactly(stale);
    assertThat(s.taskChildren(parent, 0, 10)).isEmpty();

    Passes.complete(
        s,
        "r",
        List.of(
            new Completion(
                c.lease(),
                TaskRunStatus.FAILED,
                Json.object(),
                LeaseContract.T0,
                c,
                List.of(child("page", 1)))),
        LeaseContract.T0);
    assertThat(s.taskChildren(parent, 0, 10)).isEmpty();
    assertThat(task(parent).status()).isEqualTo(TaskStatus.DISABLED);
  }

  @Test
  default void anInvalidChildFailsItsParentsRunAndSpawnsNothing() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    type(s, "page", ChildrenRule.ALL_SUCCEEDED);
    long parent = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();

    run(
        s,
        crawl,
        TaskRunStatus.EVENTFUL,
        List.of(child("page", 1), child("nope", 2)),
        LeaseContract.T0);

    assertThat(s.taskChildren(parent, 0, 10)).isEmpty();
    assertThat(task(parent).status()).isEqualTo(TaskStatus.DISABLED);
    assertThat(
            s.taskRunList(List.of(parent), null, 5).get(0).metadata().at("/result/error").asText())
        .contains("spawn: type: unknown task type 'nope'");
  }

  @Test
  default void aNestedTreeSealsUpwardOnce() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    TaskType snap = type(s, "snapshot", ChildrenRule.ALL_SUCCEEDED);
    TaskType result = type(s, "result", ChildrenRule.ALL_SUCCEEDED);
    long root = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();
    run(s, crawl, TaskRunStatus.EVENTFUL, List.of(child("snapshot", 1)), LeaseContract.T0);
    run(
        s,
        snap,
        TaskRunStatus.EVENTFUL,
        List.of(child("result", 2), child("result", 3)),
        LeaseContract.T0);
    long snapshot = s.taskChildren(root, 0, 10).get(0).id();
    List<Task> results = s.taskChildren(snapshot, 0, 10);
    assertThat(s.taskFamily(results.stream().map(Task::id).toList()))
        .allSatisfy(f -> assertThat(f.root()).isEqualTo(root));

    List<Claim> leaves = Passes.claim(s, result, "r", LeaseContract.T0, LeaseContract.LEASE, 2);
    Passes.complete(
        s,
        "r",
        leaves.stream()
            .map(
                c ->
                    new Completion(
                        c.lease(), TaskRunStatus.EVENTFUL, Json.object(), LeaseContract.T0, c))
            .toList(),
        LeaseContract.T0.plusSeconds(1));

    assertThat(task(snapshot).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(task(root).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(family(root).childrenPending()).isZero();
  }

  @Test
  default void siblingsEndingInPassesOfSeveralThreadsSealTheirParentsOnce() throws Exception {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    TaskType snap = type(s, "snapshot", ChildrenRule.ALL_SUCCEEDED);
    TaskType result = type(s, "result", ChildrenRule.ALL_SUCCEEDED);
    long root = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();
    run(
        s,
        crawl,
        TaskRunStatus.EVENTFUL,
        IntStream.range(0, 4).mapToObj(i -> child("snapshot", i)).toList(),
        LeaseContract.T0);
    for (int i = 0; i < 4; i++) {
      run(
          s,
          snap,
          TaskRunStatus.EVENTFUL,
          IntStream.range(0, 50).mapToObj(j -> child("result", j)).toList(),
          LeaseContract.T0);
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> ended = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        String owner = "r" + t;
        ended.add(
            pool.submit(
                () -> {
                  go.await();
                  int n = 0;
                  List<Claim> claims;
                  do {
                    claims =
                        Passes.claim(s, result, owner, LeaseContract.T0, LeaseContract.LEASE, 7);
                    List<Completion> ends = new ArrayList<>();
                    for (Claim c : claims) {
                      ends.add(
                          new Completion(
                              c.lease(),
                              TaskRunStatus.EVENTFUL,
                              Json.object(),
                              LeaseContract.T0,
                              c));
                    }
                    assertThat(Passes.complete(s, owner, ends, LeaseContract.T0)).isEmpty();
                    n += claims.size();
                  } while (!claims.isEmpty());
                  return n;
                }));
      }
      go.countDown();
      int total = 0;
      for (Future<Integer> f : ended) {
        total += f.get(120, TimeUnit.SECONDS); // a safety net, not a timing
      }
      assertThat(total).isEqualTo(200);
    } finally {
      pool.shutdownNow();
    }
    assertThat(task(root).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(family(root).childrenPending()).isZero();
    assertThat(s.taskChildren(root, 0, 10))
        .allSatisfy(t -> assertThat(t.status()).isEqualTo(TaskStatus.COMPLETED));
    assertThat(s.taskFamily(s.taskChildren(root, 0, 10).stream().map(Task::id).toList()))
        .allSatisfy(f -> assertThat(f.childrenPending()).isZero());
  }

  @Test
  default void tenThousandChildrenSealTheirParent() {
    Store s = store();
    TaskType crawl = type(s, "crawl", ChildrenRule.ALL_SUCCEEDED);
    TaskType page = type(s, "page", ChildrenRule.ALL_SUCCEEDED);
    long parent = s.taskCreate(List.of(child("crawl", 0)), LeaseContract.T0).get(0).id();
    int n = 10_000;
    run(
        s,
        crawl,
        TaskRunStatus.EVENTFUL,
        IntStream.range(0, n).mapToObj(i -> child("page", i)).toList(),
        LeaseContract.T0);
    assertThat(family(parent).childrenTotal()).isEqualTo(n);

    int ended = 0;
    Instant at = LeaseContract.T0.plusSeconds(1);
    while (ended < n) {
      List<Claim> claims = Passes.claim(s, page, "r", at, LeaseContract.LEASE, 1000);
      assertThat(task(parent).status()).isEqualTo(TaskStatus.WAITING_FOR_CHILDREN);
      Passes.complete(
          s,
          "r",
          claims.stream()
              .map(c -> new Completion(c.lease(), TaskRunStatus.EVENTFUL, Json.object(), at, c))
              .toList(),
          at);
      ended += claims.size();
    }
    assertThat(task(parent).status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(family(parent).childrenPending()).isZero();
    assertThat(family(parent).childrenFailed()).isZero();
  }
}
