package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Per-key limits seen from a running {@link Runner}: real worker threads, a Java handler that
 * counts how many tasks of each owner execute at once. Mixed into {@link RunnerContractTest}, so it
 * runs on every database.
 */
interface PerKeyRunnerContract {
  Store store();

  RunnerOptions options();

  Runner runner(RunnerOptions options, Map<String, TaskHandler> handlers);

  private static List<NewTask> builds(String owner, int n, Instant firstDue) {
    return IntStream.range(0, n)
        .mapToObj(
            i ->
                NewTask.oneshot("build", TaskArguments.of(List.of(i), Map.of("owner", owner)))
                    .withNextRun(firstDue.plusMillis(i)))
        .toList();
  }

  @Test
  default void noOwnerRunsMoreThanItsLimitAndASmallOwnerDoesNotWaitBehindABigOne()
      throws Exception {
    Store store = store();
    // Four workers, so without the limit one owner could run four at once.
    store.taskTypeCreate(TaskType.builder("build").maxWorkers(4).perKeyLimit("owner", 2).build());
    Instant now = Clock.systemUTC().instant();
    store.taskCreate(builds("big", 30, now.minusSeconds(60)), now);
    store.taskCreate(builds("mid", 30, now.minusSeconds(50)), now);
    store.taskCreate(builds("small", 1, now.minusSeconds(1)), now);

    Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> peak = new ConcurrentHashMap<>();
    CountDownLatch smallStarted = new CountDownLatch(1);
    AtomicInteger waitedInVain = new AtomicInteger();
    RunnerStats stats =
        runner(
                options(),
                Map.of(
                    "build",
                    ctx -> {
                      String owner = ctx.arguments().kwargs().get("owner").asText();
                      int n =
                          running
                              .computeIfAbsent(owner, k -> new AtomicInteger())
                              .incrementAndGet();
                      peak.computeIfAbsent(owner, k -> new AtomicInteger())
                          .accumulateAndGet(n, Math::max);
                      try {
                        if (owner.equals("small")) {
                          smallStarted.countDown();
                        } else if (waitedInVain.get() == 0
                            && !smallStarted.await(30, TimeUnit.SECONDS)) {
                          // Every big and mid task waits for small's: if small's were queued behind
                          // their
                          // backlogs, the first four of them would hold every worker until this
                          // gives up (and
                          // then the rest stop waiting, so the test fails on the assertion, not on
                          // its timeout).
                          waitedInVain.incrementAndGet();
                        }
                        Thread.sleep(5); // the work, so that tasks of one owner overlap
                      } finally {
                        running.get(owner).decrementAndGet();
                      }
                      return Outcome.eventful();
                    }))
            .run();

    assertThat(waitedInVain.get()).isZero();
    assertThat(peak).containsOnlyKeys("big", "mid", "small");
    assertThat(peak).allSatisfy((owner, n) -> assertThat(n.get()).isBetween(1, 2));
    assertThat(stats.claimed()).isEqualTo(61);
    assertThat(store.taskSearch(TaskQuery.all())).allMatch(t -> t.status() == TaskStatus.COMPLETED);
  }
}
