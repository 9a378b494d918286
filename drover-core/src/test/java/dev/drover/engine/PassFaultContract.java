package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.Outcome;
import dev.drover.model.NewTask;
import dev.drover.model.RunHistory;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Dialect;
import dev.drover.store.Store;
import dev.drover.store.StoreOptions;
import dev.drover.store.StoreProbe;
import dev.drover.testing.FaultProbe;
import dev.drover.testing.HeldCommit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A pass commits whole or changes nothing in memory: the store is made to fail at each step of a
 * runner's pass (claiming, writing starts, ending runs, updating their tasks, the commit), at the
 * first occurrence and at later ones, and the runner must lose no result, charge no attempt, run no
 * task twice, and report stats equal to what the database holds. Mixed into {@link
 * RunnerContractTest}, so it runs on every database.
 */
interface PassFaultContract {
  /** Every statement of a pass's transaction, by query name prefix. */
  Set<String> PASS_QUERIES =
      Set.of(
          "taskClaimCandidates",
          "taskClaim",
          "taskCountMoved",
          "taskRunInsertStarted",
          "taskRunInsertEnded",
          "taskRunEndMany",
          "taskRunDeleteSucceeded",
          "taskUpdateAfterRunAsClaimed",
          "taskUpdatePlansByKey",
          "taskSpawned",
          "taskInsertChild",
          "taskParentsOf",
          "taskChildrenSettled",
          "taskSeal");

  int TASKS = 40;

  /** A store on the same database as {@link #store()}, opened with {@code options}. */
  Store openAnother(StoreOptions options);

  Store store();

  RunnerOptions options();

  /**
   * Each step of a pass, failing at its first occurrence, its third, and three in a row; for a type
   * that keeps every run, and for one that keeps only failures (whose successes delete the runs
   * their starts wrote).
   */
  static Stream<Arguments> faults() {
    Stream<Arguments> every =
        Stream.of(
                "taskClaimCandidates",
                "taskClaim",
                "taskCountMoved",
                "taskRunInsertStarted",
                "taskRunEndMany",
                "taskUpdatePlansByKey",
                "taskUpdateAfterRunAsClaimed",
                FaultProbe.COMMIT)
            .flatMap(step -> occurrences(step, RunHistory.ALL));
    Stream<Arguments> failures =
        Stream.of(
                "taskRunInsertStarted",
                "taskRunDeleteSucceeded",
                "taskUpdateAfterRunAsClaimed",
                "taskCountMoved",
                FaultProbe.COMMIT)
            .flatMap(step -> occurrences(step, RunHistory.FAILURES));
    return Stream.concat(every, failures);
  }

  private static Stream<Arguments> occurrences(String step, RunHistory history) {
    return Stream.of(
        Arguments.of(step, Set.of(1), history),
        Arguments.of(step, Set.of(3), history),
        Arguments.of(step, Set.of(2, 3, 4), history));
  }

  /**
   * {@link #TASKS} one-shot tasks of a type "work" with four workers, no retries and {@code
   * history}, all due.
   */
  private void createWork(RunHistory history) {
    store()
        .taskTypeCreate(
            TaskType.builder("work").maxWorkers(4).numRetries(0).runHistory(history).build());
    store()
        .taskCreate(
            IntStream.range(0, TASKS)
                .mapToObj(i -> NewTask.oneshot("work", TaskArguments.of(List.of(i), null)))
                .toList(),
            Clock.systemUTC().instant());
  }

  @ParameterizedTest(name = "{0} fails at occurrences {1}, run history {2}")
  @MethodSource("dev.drover.engine.PassFaultContract#faults")
  default void aFailedPassLosesNoResultAndChargesNoAttempt(
      String step, Set<Integer> failing, RunHistory history) throws Exception {
    assumeTrue(
        !step.equals("taskUpdatePlansByKey") || store().dialect() == Dialect.POSTGRESQL,
        "SQLite has no planner settings to make");
    createWork(history);
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    Set<Long> executing = ConcurrentHashMap.newKeySet();
    AtomicInteger overlaps = new AtomicInteger();
    FaultProbe probe = new FaultProbe(step, failing, PASS_QUERIES);

    RunnerStats stats;
    try (Store faulty = openAnother(StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerOptions options =
          options()
              .withOutageBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
              .withTotalWorkers(4);
      stats =
          new RunnerBuilder(faulty, options.runsDir())
              .options(options)
              .handler(
                  "work",
                  ctx -> {
                    if (!executing.add(ctx.taskId())) {
                      overlaps.incrementAndGet();
                    }
                    executions
                        .computeIfAbsent(ctx.taskId(), k -> new AtomicInteger())
                        .incrementAndGet();
                    Files.writeString(ctx.runDir().resolve("out.txt"), "task " + ctx.taskId());
                    awaitStartWritten(ctx.taskId());
                    executing.remove(ctx.taskId());
                    return Outcome.eventful();
                  })
              .build()
              .run();
    }

    assertThat(probe.fired()).as("faults injected at " + step).isEqualTo(failing.size());
    List<Task> tasks = store().taskSearch(TaskQuery.all());
    assertThat(tasks)
        .hasSize(TASKS)
        .allSatisfy(
            t -> assertThat(t.status()).as("task " + t.id()).isEqualTo(TaskStatus.COMPLETED));
    assertThat(store().taskCountByTypeAndStatus())
        .as("the status counts, kept in the passes' transactions")
        .containsExactly(new StatusCount("work", TaskStatus.COMPLETED, TASKS));
    List<TaskRun> runs = store().taskRunList(List.of(), null, 10 * TASKS);
    if (history == RunHistory.ALL) {
      assertThat(runs)
          .as("one run per task, none lost")
          .hasSize(TASKS)
          .allSatisfy(r -> assertThat(r.status()).isEqualTo(TaskRunStatus.EVENTFUL));
    } else {
      assertThat(runs).as("successes are not kept, nor their starts").isEmpty();
    }
    try (Stream<Path> dirs = Files.list(options().runsDir().resolve("work"))) {
      assertThat(dirs.count())
          .as("output directories: every run's, or none once no row names them")
          .isEqualTo(history == RunHistory.ALL ? TASKS : 0);
    }
    assertThat(executions)
        .hasSize(TASKS)
        .allSatisfy((id, n) -> assertThat(n.get()).as("executions of task " + id).isEqualTo(1));
    assertThat(overlaps.get()).as("a task executing twice at once").isZero();
    assertThat(stats.eventful()).as("stats: eventful").isEqualTo(TASKS);
    assertThat(stats.claimed()).as("stats: claimed").isEqualTo(TASKS);
    assertThat(stats.rescued()).as("stats: rescued").isZero();
    assertThat(stats.leasesLost()).as("stats: leases lost").isZero();
    assertThat(stats.failed()).as("stats: failed").isZero();
  }

  static Stream<Arguments> spawnFaults() {
    return Stream.of(
            "taskSpawned",
            "taskInsertChild",
            "taskParentsOf",
            "taskChildrenSettled",
            "taskSeal",
            FaultProbe.COMMIT)
        .flatMap(
            step -> Stream.of(Arguments.of(step, Set.of(1)), Arguments.of(step, Set.of(2, 3))));
  }

  /**
   * The same for the statements a tree adds to a pass: a parent's run end that writes its children,
   * and a child's end that counts against its parent and seals it. Whatever step fails, each parent
   * spawns its children once, each child runs once, and each parent is sealed once.
   */
  @ParameterizedTest(name = "{0} fails at occurrences {1}")
  @MethodSource("dev.drover.engine.PassFaultContract#spawnFaults")
  default void aFailedPassSpawnsAndSealsEachTreeOnce(String step, Set<Integer> failing)
      throws Exception {
    int parents = 6;
    int perParent = 3;
    store().taskTypeCreate(TaskType.builder("crawl").numRetries(0).build());
    store().taskTypeCreate(TaskType.builder("page").numRetries(0).build());
    store()
        .taskCreate(
            IntStream.range(0, parents)
                .mapToObj(i -> NewTask.oneshot("crawl", TaskArguments.of(List.of(i), null)))
                .toList(),
            Clock.systemUTC().instant());
    Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    FaultProbe probe = new FaultProbe(step, failing, PASS_QUERIES);

    try (Store faulty = openAnother(StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerOptions options =
          options()
              .withOutageBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
              .withTotalWorkers(4);
      new RunnerBuilder(faulty, options.runsDir())
          .options(options)
          .handler(
              "crawl",
              ctx -> {
                executions
                    .computeIfAbsent("crawl " + ctx.arguments().toJson(), k -> new AtomicInteger())
                    .incrementAndGet();
                int crawl = ctx.arguments().args().get(0).asInt();
                return Outcome.eventful()
                    .spawning(
                        IntStream.range(0, perParent)
                            .mapToObj(
                                j ->
                                    NewTask.oneshot(
                                        "page", TaskArguments.of(List.of(crawl, j), null)))
                            .toList());
              })
          .handler(
              "page",
              ctx -> {
                executions
                    .computeIfAbsent("page " + ctx.arguments().toJson(), k -> new AtomicInteger())
                    .incrementAndGet();
                return Outcome.eventful();
              })
          .build()
          .run();
    }

    assertThat(probe.fired()).as("faults injected at " + step).isEqualTo(failing.size());
    List<Task> tasks = store().taskSearch(TaskQuery.all());
    assertThat(tasks)
        .as("each parent's children written once")
        .hasSize(parents * (1 + perParent))
        .allSatisfy(
            t -> assertThat(t.status()).as("task " + t.id()).isEqualTo(TaskStatus.COMPLETED));
    assertThat(tasks.stream().map(t -> t.type() + " " + t.arguments().toJson()).distinct())
        .hasSize(parents * (1 + perParent));
    assertThat(executions)
        .hasSize(parents * (1 + perParent))
        .allSatisfy((task, n) -> assertThat(n.get()).as("executions of " + task).isEqualTo(1));
    List<Long> crawls = tasks.stream().filter(t -> t.type().equals("crawl")).map(Task::id).toList();
    assertThat(store().taskFamily(crawls))
        .allSatisfy(
            f -> {
              assertThat(f.childrenTotal()).isEqualTo(perParent);
              assertThat(f.childrenPending()).isZero();
              assertThat(f.childrenFailed()).isZero();
            });
    assertThat(store().taskRunList(List.of(), null, 100))
        .as("one run per task")
        .hasSize(parents * (1 + perParent));
  }

  /**
   * Where writers run side by side (PostgreSQL), a pass that writes results and claims does both at
   * once, in two transactions: the claims' transaction and the results' are open at the same time,
   * on two threads. Until that is seen, the probe holds each commit of claims up to 200 ms for
   * results to be written on another thread, so the overlap shows however the threads are
   * scheduled. Where writers take turns (SQLite), a pass stays one transaction on the runner's
   * thread: its claims never overlap its writes.
   */
  @Test
  default void aPassWritesAndClaimsSideBySideWhereTheDatabaseAllows() throws Exception {
    createWork(RunHistory.ALL);
    OverlapProbe probe = new OverlapProbe(Thread.currentThread());
    try (Store probed = openAnother(StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerOptions options = options().withTotalWorkers(4);
      RunnerStats stats =
          new RunnerBuilder(probed, options.runsDir())
              .options(options)
              .handler("work", ctx -> Outcome.eventful())
              .build()
              .run();
      assertThat(stats.eventful()).isEqualTo(TASKS);
    }
    assertThat(probe.overlapped.get())
        .as("a pass's claims and results in transactions open at once")
        .isEqualTo(store().dialect().writersRunSideBySide());
    assertThat(store().taskSearch(TaskQuery.all()))
        .allSatisfy(t -> assertThat(t.status()).isEqualTo(TaskStatus.COMPLETED));
  }

  /** See {@link #aPassWritesAndClaimsSideBySideWhereTheDatabaseAllows}. */
  final class OverlapProbe implements StoreProbe {
    final AtomicBoolean overlapped = new AtomicBoolean();

    private final Thread runnerThread;

    /** Threads with results written and not committed yet. */
    private final Set<Thread> writing = ConcurrentHashMap.newKeySet();

    private volatile boolean claiming;

    OverlapProbe(Thread runnerThread) {
      this.runnerThread = runnerThread;
    }

    @Override
    public void beforeStatement(String queryName) {
      Thread self = Thread.currentThread();
      if (queryName.startsWith("taskUpdateAfterRunAsClaimed")) {
        writing.add(self);
        if (claiming && self != runnerThread) {
          overlapped.set(true);
        }
      } else if (queryName.startsWith("taskClaimCandidates") && self == runnerThread) {
        claiming = true;
        noteOverlap();
      }
    }

    @Override
    public void beforeCommit() {
      Thread self = Thread.currentThread();
      writing.remove(self);
      if (self == runnerThread && claiming) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        while (!noteOverlap() && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
        claiming = false;
      }
    }

    private boolean noteOverlap() {
      if (writing.stream().anyMatch(t -> t != runnerThread)) {
        overlapped.set(true);
      }
      return overlapped.get();
    }
  }

  /**
   * Where writers run side by side (PostgreSQL), a task created while a pass's results are being
   * written starts before they commit: the runner claims it meanwhile, on its own thread. The probe
   * holds the commit of the first results until the second task has started. If that claim fails,
   * the results still commit, nothing of the failed claim is in memory, and the task runs once, on
   * a later pass. Where writers take turns (SQLite), a pass is one transaction and holds the write
   * lock until it commits, so there is nothing to claim meanwhile.
   */
  @ParameterizedTest(name = "the claim meanwhile fails: {0}")
  @ValueSource(booleans = {false, true})
  default void aTaskCreatedWhileResultsAreWrittenStartsBeforeTheyCommit(boolean claimFails)
      throws Exception {
    assumeTrue(
        store().dialect().writersRunSideBySide(), "writers take turns: a pass is one transaction");
    store().taskTypeCreate(TaskType.builder("work").maxWorkers(4).numRetries(0).build());
    long first = createOne(0);
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    CountDownLatch secondStarted = new CountDownLatch(1);
    ResultsHeld probe = new ResultsHeld();
    RunnerStats stats;
    try (Store probed = openAnother(StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerOptions options =
          options()
              .withExitOnIdle(false)
              .withOutageBackoff(Duration.ofMillis(10), Duration.ofMillis(50));
      Runner runner =
          new RunnerBuilder(probed, options.runsDir())
              .options(options)
              .handler(
                  "work",
                  ctx -> {
                    executions
                        .computeIfAbsent(ctx.taskId(), k -> new AtomicInteger())
                        .incrementAndGet();
                    if (ctx.taskId() != first) {
                      secondStarted.countDown();
                    }
                    return Outcome.eventful();
                  })
              .build();
      java.util.concurrent.ExecutorService background = Executors.newSingleThreadExecutor();
      Future<RunnerStats> run = background.submit(runner::run);
      background.shutdown();
      try {
        try {
          assertThat(probe.awaitHeld(Duration.ofSeconds(30)))
              .as("the first task's result reached its commit")
              .isTrue();
          if (claimFails) {
            probe.failTheNextClaim(); // before the task exists, which the runner may claim at once
          }
          createOne(1);
          if (claimFails) {
            assertThat(probe.claimFailed.await(30, TimeUnit.SECONDS))
                .as("a claim failed while the results were held")
                .isTrue();
            assertThat(secondStarted.await(100, TimeUnit.MILLISECONDS))
                .as("the second task started from a failed claim")
                .isFalse();
          } else {
            assertThat(secondStarted.await(30, TimeUnit.SECONDS))
                .as("the second task started while the first's result was held")
                .isTrue();
          }
        } finally {
          probe.release();
        }
        assertThat(secondStarted.await(30, TimeUnit.SECONDS))
            .as("the second task started")
            .isTrue();
      } finally {
        runner.stop(Duration.ofSeconds(5));
      }
      stats = run.get(60, TimeUnit.SECONDS);
    }
    assertThat(store().taskSearch(TaskQuery.all()))
        .hasSize(2)
        .allSatisfy(t -> assertThat(t.status()).isEqualTo(TaskStatus.COMPLETED));
    assertThat(store().taskRunList(List.of(), null, 10))
        .as("one run per task")
        .hasSize(2)
        .allSatisfy(r -> assertThat(r.status()).isEqualTo(TaskRunStatus.EVENTFUL));
    assertThat(executions)
        .hasSize(2)
        .allSatisfy((id, n) -> assertThat(n.get()).as("executions of task " + id).isEqualTo(1));
    assertThat(stats.claimed()).as("stats: claimed").isEqualTo(2);
    assertThat(stats.eventful()).as("stats: eventful").isEqualTo(2);
    assertThat(stats.leasesLost()).as("stats: leases lost").isZero();
  }

  private long createOne(int argument) {
    return store()
        .taskCreate(
            List.of(NewTask.oneshot("work", TaskArguments.of(List.of(argument), null))),
            Clock.systemUTC().instant())
        .get(0)
        .id();
  }

  /**
   * Holds the commit of the first transaction that writes results (ends runs) until {@link
   * #release}; after {@link #failTheNextClaim}, fails the next claim made while it holds.
   */
  final class ResultsHeld implements StoreProbe {
    final CountDownLatch claimFailed = new CountDownLatch(1);

    private final HeldCommit results =
        HeldCommit.ofTransactionsRunning("taskUpdateAfterRunAsClaimed");
    private volatile boolean failAClaim;

    ResultsHeld() {
      results.arm();
    }

    boolean awaitHeld(Duration timeout) throws InterruptedException {
      return results.awaitReached(timeout);
    }

    void failTheNextClaim() {
      failAClaim = true;
    }

    void release() {
      results.release();
    }

    @Override
    public void beforeStatement(String queryName) {
      results.beforeStatement(queryName);
      if (failAClaim
          && results.holding()
          && queryName.startsWith("taskClaim")
          && claimFailed.getCount() > 0) {
        claimFailed.countDown();
        throw new IllegalStateException("injected fault at a claim while results are held");
      }
    }

    @Override
    public void beforeCommit() {
      results.beforeCommit();
    }
  }

  /**
   * Keeps a run executing until a pass has written its start (the runner writes the start of a run
   * still executing at its next pass), so that every task brings a write of starts, whatever the
   * machine's speed: a fault at the third such write then always has one to hit. Bounded, so a
   * defect shows as a failed assertion rather than a hang.
   */
  private void awaitStartWritten(long taskId) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (store().taskRunList(List.of(taskId), TaskRunStatus.STARTED, 1).isEmpty()
        && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
  }

  /**
   * A daemon outlives more failed passes in a row than a one-off run accepts: it backs off, says
   * once that it lost the database and once that it has it back, and then runs the work.
   */
  @Test
  default void aDaemonOutlivesAnOutageAndSaysSoOnce() throws Exception {
    store().taskTypeCreate(TaskType.builder("work").build());
    store()
        .taskCreate(
            IntStream.range(0, 3)
                .mapToObj(i -> NewTask.oneshot("work", TaskArguments.of(List.of(i), null)))
                .toList(),
            Clock.systemUTC().instant());
    int outage = Outage.ONE_OFF_LIMIT + 5;
    FaultProbe probe =
        new FaultProbe(
            "taskTypeList",
            IntStream.rangeClosed(1, outage).boxed().collect(Collectors.toSet()),
            Set.of());
    CountDownLatch ran = new CountDownLatch(3);
    try (Store faulty = openAnother(StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerOptions options =
          options()
              .withExitOnIdle(false)
              .withOutageBackoff(Duration.ofMillis(5), Duration.ofMillis(20));
      Runner runner =
          new RunnerBuilder(faulty, options.runsDir())
              .options(options)
              .handler(
                  "work",
                  ctx -> {
                    ran.countDown();
                    return Outcome.eventful();
                  })
              .build();
      java.util.concurrent.ExecutorService background = Executors.newSingleThreadExecutor();
      Future<RunnerStats> run = background.submit(runner::run);
      background.shutdown();
      assertThat(ran.await(60, TimeUnit.SECONDS)).as("the work ran").isTrue();
      runner.stop(Duration.ofSeconds(5));
      RunnerStats stats = run.get(60, TimeUnit.SECONDS);
      assertThat(probe.fired()).isEqualTo(outage);
      assertThat(stats.eventful()).isEqualTo(3);
    }
    List<String> kinds = store().eventList(0, 10_000).stream().map(e -> e.kind()).toList();
    assertThat(kinds.stream().filter(k -> k.equals("database_lost"))).hasSize(1);
    assertThat(kinds.stream().filter(k -> k.equals("database_regained"))).hasSize(1);
    assertThat(kinds.indexOf("database_lost")).isLessThan(kinds.indexOf("database_regained"));
  }

  /** A one-off run (exit on idle) gives up after {@link Outage#ONE_OFF_LIMIT} failed passes. */
  @Test
  default void aOneOffRunGivesUpWhenTheDatabaseStaysAway() {
    store().taskTypeCreate(TaskType.builder("work").build());
    FaultProbe probe =
        new FaultProbe(
            "taskTypeList",
            IntStream.rangeClosed(1, 1000).boxed().collect(Collectors.toSet()),
            Set.of());
    try (Store faulty = openAnother(StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerOptions options =
          options().withOutageBackoff(Duration.ofMillis(1), Duration.ofMillis(5));
      Runner runner =
          new RunnerBuilder(faulty, options.runsDir())
              .options(options)
              .handler("work", ctx -> Outcome.eventful())
              .build();
      assertThatThrownBy(runner::run).isInstanceOf(FaultProbe.InjectedFault.class);
      assertThat(probe.fired()).isEqualTo(Outage.ONE_OFF_LIMIT + 1);
    }
  }
}
