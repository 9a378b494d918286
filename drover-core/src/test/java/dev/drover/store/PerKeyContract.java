package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Per-key concurrency limits: a type with {@code concurrency_key: owner} and {@code max_per_key: 2}
 * never has more than two tasks of one owner leased, and its claims serve owners round-robin. Mixed
 * into {@link StoreContractTest}, so it runs on every database.
 */
interface PerKeyContract {
  Store store();

  private static Instant t0() {
    return LeaseContract.T0;
  }

  private Store withBuildType(int maxPerKey) {
    Store s = store();
    s.taskTypeCreate(
        TaskType.builder("build").perKeyLimit("owner", maxPerKey).numRetries(1).build());
    return s;
  }

  /** {@code n} one-shot builds of {@code owner}, due one second apart from {@code firstDue}. */
  private static List<NewTask> builds(String owner, int n, Instant firstDue) {
    return IntStream.range(0, n)
        .mapToObj(
            i ->
                NewTask.oneshot(
                        "build", TaskArguments.of(List.of(owner + "-" + i), Map.of("owner", owner)))
                    .withNextRun(firstDue.plusSeconds(i)))
        .toList();
  }

  private static List<Claim> claim(Store s, String runner, Instant now, int limit) {
    TaskType build = s.taskTypeGet("build").orElseThrow();
    return Passes.claim(s, build, runner, now, LeaseContract.LEASE, limit);
  }

  private static String owner(Task t) {
    return t.arguments().kwargs().get("owner").asText();
  }

  private static Map<String, Long> perOwner(List<Task> tasks) {
    return tasks.stream()
        .collect(Collectors.groupingBy(PerKeyContract::owner, Collectors.counting()));
  }

  /** How many tasks of each owner the store holds leased, read in one query. */
  private static Map<String, Long> leasedPerOwner(Store s) {
    return perOwner(
        s.taskSearch(
            new TaskQuery(
                null,
                List.of("build"),
                List.of(TaskStatus.NEXT_RUN_SCHEDULED),
                null,
                null,
                null,
                null,
                null)));
  }

  private static void complete(Store s, String runner, List<Claim> claims, Instant at) {
    assertThat(
            Passes.complete(
                s,
                runner,
                claims.stream()
                    .map(c -> new Completion(c.lease(), TaskRunStatus.EVENTFUL, null))
                    .toList(),
                at))
        .isEmpty();
  }

  /** A paused type with a per-key limit is not claimed either (its claim reads the pause). */
  @Test
  default void aPausedPerKeyTypeIsNotClaimed() {
    Store s = withBuildType(2);
    s.taskCreate(builds("ann", 3, t0().minusSeconds(10)), t0());
    assertThat(s.taskTypePause("build", true)).isTrue();
    assertThat(claim(s, "r", t0(), 5)).isEmpty();
    s.taskTypePause("build", false);
    assertThat(claim(s, "r", t0(), 5)).hasSize(2);
  }

  @Test
  default void aTypeKeepsItsPerKeyLimit() {
    TaskType type = TaskType.builder("build").perKeyLimit("owner", 2).build();
    store().taskTypeCreate(type);
    assertThat(store().taskTypeGet("build")).contains(type);
    assertThat(store().taskTypeUpsert(type.toBuilder().maxPerKey(3).build()))
        .isEqualTo(Store.UpsertResult.UPDATED);
    assertThat(store().taskTypeGet("build").orElseThrow().maxPerKey()).isEqualTo(3);
    assertThat(
            store().taskTypeUpsert(type.toBuilder().concurrencyKey(null).maxPerKey(null).build()))
        .isEqualTo(Store.UpsertResult.UPDATED);
    assertThat(store().taskTypeGet("build").orElseThrow().concurrencyKey()).isNull();
  }

  @Test
  default void noKeyEverHasMoreThanItsLimitLeasedAndACompletionFreesASlot() {
    Store s = withBuildType(2);
    s.taskCreate(builds("big", 5, t0().minusSeconds(60)), t0());
    s.taskCreate(builds("small", 1, t0().minusSeconds(30)), t0());

    List<Claim> first = claim(s, "runner-a", t0(), 10);
    assertThat(perOwner(first.stream().map(Claim::task).toList()))
        .containsOnly(Map.entry("big", 2L), Map.entry("small", 1L));
    assertThat(first)
        .filteredOn(c -> owner(c.task()).equals("big"))
        .extracting(c -> c.task().arguments().args().get(0).asText())
        .as("oldest first within a key")
        .containsExactly("big-0", "big-1");
    assertThat(claim(s, "runner-b", t0(), 10)).as("another runner sees the same limit").isEmpty();
    assertThat(leasedPerOwner(s)).containsOnly(Map.entry("big", 2L), Map.entry("small", 1L));

    Claim bigOne =
        first.stream().filter(c -> owner(c.task()).equals("big")).findFirst().orElseThrow();
    complete(s, "runner-a", List.of(bigOne), t0().plusSeconds(1));
    List<Claim> next = claim(s, "runner-b", t0().plusSeconds(1), 10);
    assertThat(next)
        .extracting(c -> c.task().arguments().args().get(0).asText())
        .containsExactly("big-2");
    assertThat(leasedPerOwner(s)).containsOnly(Map.entry("big", 2L), Map.entry("small", 1L));
    assertThat(next.get(0).lease().attempt()).isEqualTo(1);
    assertThat(next.get(0).run().status()).as("queued").isEqualTo(TaskRunStatus.SCHEDULED);
    Passes.start(s, "runner-b", next, t0().plusSeconds(2));
    assertThat(s.taskRunGet(next.get(0).run().backendId()).orElseThrow().status())
        .isEqualTo(TaskRunStatus.STARTED);
    assertThat(next.get(0).leaseUntil()).isEqualTo(t0().plusSeconds(1).plus(LeaseContract.LEASE));
  }

  @Test
  default void anExpiredLeaseHoldsItsSlotUntilItIsRescued() {
    Store s = withBuildType(1);
    s.taskCreate(builds("big", 3, t0().minusSeconds(60)), t0());
    Claim held = claim(s, "crashed", t0(), 10).get(0);
    Instant afterExpiry = t0().plus(LeaseContract.LEASE).plusSeconds(1);
    // The crashed runner's work might still be going on; only the rescuer ends the lease.
    assertThat(claim(s, "fresh", afterExpiry, 10)).isEmpty();
    assertThat(s.taskRescueExpired(afterExpiry, 10)).containsExactly(held.task().id());
    assertThat(claim(s, "fresh", afterExpiry, 10)).hasSize(1);
  }

  @Test
  default void aReleaseFreesASlot() {
    Store s = withBuildType(1);
    s.taskCreate(builds("big", 3, t0().minusSeconds(60)), t0());
    Claim held = claim(s, "r", t0(), 10).get(0);
    assertThat(s.taskRelease("r", List.of(held.lease()), t0().plusSeconds(1))).isEqualTo(1);
    assertThat(claim(s, "r", t0().plusSeconds(1), 10)).hasSize(1);
  }

  @Test
  default void aSmallKeysFirstTaskIsNotQueuedBehindABigKeysBacklog() {
    Store s = withBuildType(2);
    s.taskCreate(builds("big", 50, t0().minusSeconds(600)), t0());
    s.taskCreate(builds("small", 1, t0().minusSeconds(1)), t0());
    assertThat(claim(s, "r", t0(), 2))
        .extracting(c -> owner(c.task()))
        .containsExactlyInAnyOrder("big", "small");
  }

  @Test
  default void aKeyWithFewerRunningGoesFirstEvenInClaimsOfOne() {
    Store s = withBuildType(3);
    s.taskCreate(builds("big", 50, t0().minusSeconds(600)), t0());
    assertThat(claim(s, "r", t0(), 2)).hasSize(2);
    s.taskCreate(builds("small", 1, t0().minusSeconds(1)), t0());
    // big still has a free slot and older tasks, but small has nothing running.
    assertThat(claim(s, "r", t0(), 1)).extracting(c -> owner(c.task())).containsExactly("small");
    assertThat(claim(s, "r", t0(), 1)).extracting(c -> owner(c.task())).containsExactly("big");
  }

  @Test
  default void keysTakeTurnsEvenWhenTheLimitIsFarAway() {
    Store s = withBuildType(100);
    s.taskCreate(builds("big", 50, t0().minusSeconds(600)), t0());
    s.taskCreate(builds("small", 2, t0().minusSeconds(2)), t0());
    s.taskCreate(builds("tiny", 1, t0().minusSeconds(1)), t0());
    assertThat(claim(s, "r", t0(), 3))
        .extracting(c -> owner(c.task()))
        .containsExactlyInAnyOrder("big", "small", "tiny");
    assertThat(claim(s, "r", t0(), 2))
        .extracting(c -> owner(c.task()))
        .containsExactlyInAnyOrder("big", "small");
    assertThat(claim(s, "r", t0(), 2))
        .extracting(c -> owner(c.task()))
        .containsExactly("big", "big");
  }

  @Test
  default void keysAreTheKeywordArgumentsTextAndTasksWithoutItAreRefusedWholeBatch() {
    Store s = withBuildType(1);
    NewTask fine = NewTask.oneshot("build", TaskArguments.of(List.of(1), Map.of("owner", "alice")));
    NewTask missing =
        NewTask.oneshot("build", TaskArguments.of(List.of(2), Map.of("user", "alice")));
    assertThatThrownBy(() -> s.taskCreate(List.of(fine, missing), t0()))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).field()).isEqualTo("kwargs.owner"))
        .hasMessageContaining("concurrency_key of task type 'build'");
    Map<String, Object> nullOwner = new java.util.HashMap<>();
    nullOwner.put("owner", null);
    assertThatThrownBy(
            () ->
                s.taskCreate(
                    List.of(NewTask.oneshot("build", TaskArguments.of(List.of(3), nullOwner))),
                    t0()))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("kwargs.owner: ");
    assertThat(s.taskSearch(TaskQuery.all())).isEmpty();

    // Any JSON value is a key: the number 7 and the text "7" are the same owner.
    s.taskCreate(
        List.of(
            NewTask.oneshot("build", TaskArguments.of(List.of(4), Map.of("owner", 7)))
                .withNextRun(t0().minusSeconds(2)),
            NewTask.oneshot("build", TaskArguments.of(List.of(5), Map.of("owner", "7")))
                .withNextRun(t0().minusSeconds(1))),
        t0());
    assertThat(claim(s, "r", t0(), 10)).hasSize(1);
  }

  @Test
  default void concurrentClaimersNeverExceedTheLimitOfAKey() throws Exception {
    Store s = withBuildType(2);
    List<String> owners = List.of("o0", "o1", "o2", "o3");
    for (String o : owners) {
      s.taskCreate(builds(o, 40, t0().minusSeconds(100)), t0());
    }
    int total = owners.size() * 40;
    // held(owner) counts leases between a claim's return and its completion's start, so it never
    // exceeds what the store holds leased for that owner.
    Map<String, AtomicInteger> held = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> peak = new ConcurrentHashMap<>();
    List<Map<String, Long>> storeViews = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicInteger completed = new AtomicInteger();
    Function<String, AtomicInteger> zero = k -> new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> runners = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        String runner = "runner-" + r;
        int limit = 1 + r;
        runners.add(
            pool.submit(
                () -> {
                  start.await();
                  Instant at = t0();
                  while (completed.get() < total) {
                    List<Claim> got = claim(s, runner, at, limit);
                    for (Claim c : got) {
                      int n = held.computeIfAbsent(owner(c.task()), zero).incrementAndGet();
                      peak.computeIfAbsent(owner(c.task()), zero).accumulateAndGet(n, Math::max);
                    }
                    storeViews.add(leasedPerOwner(s));
                    got.forEach(c -> held.get(owner(c.task())).decrementAndGet());
                    complete(s, runner, got, at);
                    completed.addAndGet(got.size());
                    if (got.isEmpty()) {
                      Thread.onSpinWait();
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : runners) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(peak)
        .containsOnlyKeys(owners)
        .allSatisfy((o, n) -> assertThat(n.get()).isBetween(1, 2));
    assertThat(storeViews)
        .allSatisfy(
            v -> assertThat(v.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(2)));
    assertThat(s.taskSearch(TaskQuery.all()))
        .hasSize(total)
        .allMatch(t -> t.status() == TaskStatus.COMPLETED);
  }
}
