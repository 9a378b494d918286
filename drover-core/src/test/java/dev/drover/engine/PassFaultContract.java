package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Outcome;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreOptions;
import dev.drover.testing.FaultProbe;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A pass commits whole or changes nothing in memory: the store is made to fail at each step of a
 * runner's pass (claiming, writing starts, ending runs, updating their tasks, the commit), at the
 * first occurrence and at later ones, and the runner must lose no result, charge no attempt, run
 * no task twice, and report stats equal to what the database holds. Mixed into {@link
 * RunnerContractTest}, so it runs on every database.
 */
interface PassFaultContract {
  /** Every statement of a pass's transaction, by query name prefix. */
  Set<String> PASS_QUERIES = Set.of("taskClaimCandidates", "taskClaim", "taskRunInsertStarted",
      "taskRunEndMany", "taskUpdateAfterRunAsClaimed");
  int TASKS = 40;

  /** A store on the same database as {@link #store()}, opened with {@code options}. */
  Store openAnother(StoreOptions options);

  Store store();

  RunnerOptions options();

  static Stream<Arguments> faults() {
    return Stream.of("taskClaimCandidates", "taskClaim", "taskRunInsertStarted",
            "taskRunEndMany", "taskUpdateAfterRunAsClaimed", FaultProbe.COMMIT)
        .flatMap(step -> Stream.of(
            Arguments.of(step, Set.of(1)),
            Arguments.of(step, Set.of(3)),
            Arguments.of(step, Set.of(2, 3, 4))));
  }

  @ParameterizedTest(name = "{0} fails at occurrences {1}")
  @MethodSource("dev.drover.engine.PassFaultContract#faults")
  default void aFailedPassLosesNoResultAndChargesNoAttempt(String step, Set<Integer> failing)
      throws Exception {
    store().taskTypeCreate(TaskType.builder("work").maxWorkers(4).numRetries(0).build());
    store().taskCreate(IntStream.range(0, TASKS)
        .mapToObj(i -> NewTask.oneshot("work", TaskArguments.of(List.of(i), null))).toList(),
        Clock.systemUTC().instant());
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    Set<Long> executing = ConcurrentHashMap.newKeySet();
    AtomicInteger overlaps = new AtomicInteger();
    FaultProbe probe = new FaultProbe(step, failing, PASS_QUERIES);

    RunnerStats stats;
    try (Store faulty = openAnother(StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerOptions options = options()
          .withOutageBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
          .withTotalWorkers(4);
      stats = new RunnerBuilder(faulty, options.runsDir()).options(options)
          .handler("work", ctx -> {
            if (!executing.add(ctx.taskId())) {
              overlaps.incrementAndGet();
            }
            executions.computeIfAbsent(ctx.taskId(), k -> new AtomicInteger()).incrementAndGet();
            Thread.sleep(5); // long enough that runs are still executing when a pass writes
            executing.remove(ctx.taskId());
            return Outcome.eventful();
          })
          .build().run();
    }

    assertThat(probe.fired()).as("faults injected at " + step).isEqualTo(failing.size());
    List<Task> tasks = store().taskSearch(TaskQuery.all());
    assertThat(tasks).hasSize(TASKS)
        .allSatisfy(t -> assertThat(t.status()).as("task " + t.id()).isEqualTo(TaskStatus.COMPLETED));
    List<TaskRun> runs = store().taskRunList(List.of(), null, 10 * TASKS);
    assertThat(runs).as("one run per task, none lost").hasSize(TASKS)
        .allSatisfy(r -> assertThat(r.status()).isEqualTo(TaskRunStatus.EVENTFUL));
    assertThat(executions).hasSize(TASKS)
        .allSatisfy((id, n) -> assertThat(n.get()).as("executions of task " + id).isEqualTo(1));
    assertThat(overlaps.get()).as("a task executing twice at once").isZero();
    assertThat(stats.eventful()).as("stats: eventful").isEqualTo(runs.size());
    assertThat(stats.claimed()).as("stats: claimed").isEqualTo(TASKS);
    assertThat(stats.rescued()).as("stats: rescued").isZero();
    assertThat(stats.leasesLost()).as("stats: leases lost").isZero();
    assertThat(stats.failed()).as("stats: failed").isZero();
  }
}
