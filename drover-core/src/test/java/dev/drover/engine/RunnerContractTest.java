package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.model.NewTask;
import dev.drover.model.RunHistory;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.StoreOptions;
import dev.drover.store.Stores;
import dev.drover.testing.Databases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The runner against a real store, on every database. */
@Timeout(120)
abstract class RunnerContractTest
    implements RunnerLifecycleContract,
        PerKeyRunnerContract,
        VisitSchedulingRunnerContract,
        PassFaultContract,
        CreateClaimRunnerContract {
  @TempDir Path dir;
  StoreLocation location;
  Store store;
  final ExecutorService background = Executors.newCachedThreadPool();

  /** Where this test's stores live: new databases of the subclass's dialect, migrated and empty. */
  @RegisterExtension final Databases databases;

  RunnerContractTest(Databases databases) {
    this.databases = databases;
  }

  StoreLocation freshLocation() {
    return databases.fresh();
  }

  @BeforeEach
  void open() {
    location = freshLocation();
    store = Stores.open(location);
  }

  @Override
  public Store store() {
    return store;
  }

  @Override
  public Store openAnother() {
    return Stores.open(location);
  }

  @Override
  public Store openAnother(StoreOptions options) {
    return Stores.open(location, options);
  }

  @Override
  public ExecutorService background() {
    return background;
  }

  @Override
  public Path dir() {
    return dir;
  }

  @AfterEach
  void close() {
    background.shutdownNow();
    store.close();
  }

  @Override
  public RunnerOptions options() {
    return RunnerOptions.defaults(dir.resolve("runs")).withPollInterval(Duration.ofMillis(20));
  }

  @Override
  public Runner runner(RunnerOptions options, Map<String, TaskHandler> handlers) {
    return new RunnerBuilder(store, options.runsDir())
        .options(options)
        .handlers(handlers)
        .commands(
            (t, a, d, e) -> {
              throw new IllegalStateException("no command tasks here");
            })
        .build();
  }

  void oneshots(String type, int n) {
    store.taskCreate(
        IntStream.range(0, n)
            .mapToObj(i -> NewTask.oneshot(type, TaskArguments.of(List.of(i), null)))
            .toList(),
        Clock.systemUTC().instant());
  }

  List<Task> tasks() {
    return store.taskSearch(TaskQuery.all());
  }

  @Test
  void disablingARunningTaskEndsItsRunAndTheRunnerCancelsTheWorkWithoutCharge() throws Exception {
    store.taskTypeCreate(
        TaskType.builder("long").numRetries(1).lease(Duration.ofSeconds(3)).build());
    oneshots("long", 1);
    long id = tasks().get(0).id();
    CountDownLatch began = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    Runner runner =
        runner(
            options().withExitOnIdle(false),
            Map.of(
                "long",
                ctx -> {
                  began.countDown();
                  try {
                    Thread.sleep(120_000);
                  } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                  }
                  return Outcome.eventful();
                }));
    Future<RunnerStats> run = background.submit(runner::run);
    assertThat(began.await(30, TimeUnit.SECONDS)).isTrue();
    // The start is written by the pass after the worker began it.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (store.taskRunList(List.of(id), TaskRunStatus.STARTED, 10).isEmpty()) {
      assertThat(System.nanoTime()).as("the run's start is written").isLessThan(deadline);
      Thread.sleep(20);
    }

    assertThat(
            store.taskSetStatus(
                List.of(id), TaskStatus.DISABLED, null, false, Clock.systemUTC().instant()))
        .isEqualTo(1);
    List<TaskRun> runs = store.taskRunList(List.of(id), null, 10);
    assertThat(runs).singleElement().extracting(TaskRun::status).isEqualTo(TaskRunStatus.LOST);
    assertThat(runs.get(0).ended()).isNotNull();
    assertThat(runs.get(0).metadata().path("disabled").asBoolean()).isTrue();
    // The runner's next heartbeat (a third of the 3 s lease) finds the lease gone: it cancels.
    assertThat(interrupted.await(30, TimeUnit.SECONDS)).as("the work is cancelled").isTrue();
    runner.stop(Duration.ofSeconds(5));
    RunnerStats stats = run.get(30, TimeUnit.SECONDS);
    assertThat(stats.leasesLost()).isEqualTo(1);

    Task after = tasks().get(0);
    assertThat(after.status()).isEqualTo(TaskStatus.DISABLED);
    assertThat(after.retriesLeft()).as("nothing charged").isEqualTo(1);
    assertThat(store.taskRunList(List.of(id), null, 10))
        .as("nothing written after the disable")
        .singleElement()
        .extracting(TaskRun::status)
        .isEqualTo(TaskRunStatus.LOST);
  }

  @Test
  void runsEveryDueTaskOnceAndExitsWhenIdle() throws Exception {
    store.taskTypeCreate(TaskType.builder("work").maxWorkers(4).build());
    oneshots("work", 200);
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    RunnerStats stats =
        runner(
                options(),
                Map.of(
                    "work",
                    ctx -> {
                      executions
                          .computeIfAbsent(ctx.taskId(), k -> new AtomicInteger())
                          .incrementAndGet();
                      return ctx.arguments().args().get(0).asInt() % 2 == 0
                          ? Outcome.eventful()
                          : Outcome.uneventful();
                    }))
            .run();

    assertThat(executions).hasSize(200).allSatisfy((id, n) -> assertThat(n.get()).isEqualTo(1));
    assertThat(tasks()).allMatch(t -> t.status() == TaskStatus.COMPLETED);
    assertThat(stats.claimed()).isEqualTo(200);
    assertThat(stats.eventful()).isEqualTo(100);
    assertThat(stats.uneventful()).isEqualTo(100);
    assertThat(store.taskRunList(List.of(), null, 1000))
        .hasSize(200)
        .allMatch(
            r -> r.status() == TaskRunStatus.EVENTFUL || r.status() == TaskRunStatus.UNEVENTFUL);
  }

  /**
   * A type that keeps only failures: the runner writes no row for a success, and removes the output
   * directory of each success once its end has committed (no row would ever name it); a failure
   * keeps both. Every task writes a file to its run directory.
   */
  @Test
  void aTypeKeepingOnlyFailuresLeavesNoTraceOfItsSuccesses() throws Exception {
    store.taskTypeCreate(
        TaskType.builder("light").maxWorkers(4).runHistory(RunHistory.FAILURES).build());
    oneshots("light", 40);
    // The removals asked for are finished when run() returns.
    RunnerStats stats =
        runner(
                options(),
                Map.of(
                    "light",
                    ctx -> {
                      Files.writeString(ctx.runDir().resolve("out.txt"), "task " + ctx.taskId());
                      return ctx.arguments().args().get(0).asInt() % 10 == 0
                          ? Outcome.failed("every tenth fails")
                          : Outcome.eventful();
                    }))
            .run();

    assertThat(stats.eventful()).isEqualTo(36);
    assertThat(stats.failed()).isEqualTo(4);
    List<TaskRun> runs = store.taskRunList(List.of(), null, 100);
    assertThat(runs)
        .as("the failures only")
        .hasSize(4)
        .allMatch(r -> r.status() == TaskRunStatus.FAILED);
    Path typeDir = options().runsDir().resolve("light");
    try (Stream<Path> left = Files.list(typeDir)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("the run directories left: those of the failed runs")
          .containsExactlyInAnyOrderElementsOf(runs.stream().map(TaskRun::backendId).toList());
    }
    assertThat(tasks()).filteredOn(t -> t.status() == TaskStatus.COMPLETED).hasSize(36);
  }

  /**
   * What the history keeps is the store's verdict at the end, not the type as the runner read it at
   * the claim: a type changed to keep every run while one of its runs executes keeps that run, and
   * its output directory with it.
   */
  @Test
  void aRunWhoseTypeNowKeepsEveryRunKeepsItsOutput() throws Exception {
    TaskType light = TaskType.builder("light").runHistory(RunHistory.FAILURES).build();
    store.taskTypeCreate(light);
    oneshots("light", 1);
    RunnerStats stats =
        runner(
                options(),
                Map.of(
                    "light",
                    ctx -> {
                      Files.writeString(ctx.runDir().resolve("out.txt"), "kept");
                      store.taskTypeUpsert(light.toBuilder().runHistory(RunHistory.ALL).build());
                      return Outcome.eventful();
                    }))
            .run();

    assertThat(stats.eventful()).isEqualTo(1);
    TaskRun run = store.taskRunList(List.of(), null, 10).get(0);
    assertThat(run.status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(options().runsDir().resolve("light").resolve(run.backendId()).resolve("out.txt"))
        .as("the output of a run the history keeps")
        .hasContent("kept");
  }

  @Test
  void failuresAndExceptionsAreRecordedAndRetried() throws Exception {
    store.taskTypeCreate(
        TaskType.builder("flaky").numRetries(1).retryDelay(Duration.ofMillis(50)).build());
    oneshots("flaky", 2);
    Set<Long> seen = ConcurrentHashMap.newKeySet();
    runner(
            options(),
            Map.of(
                "flaky",
                ctx -> {
                  boolean first = seen.add(ctx.taskId());
                  if (ctx.arguments().args().get(0).asInt() == 0) {
                    throw new IllegalStateException("disk full");
                  }
                  return first ? Outcome.failed("try again") : Outcome.eventful();
                }))
        .run();

    Map<Long, List<TaskRun>> runs =
        Map.of(
            tasks().get(0).id(), store.taskRunList(List.of(tasks().get(0).id()), null, 10),
            tasks().get(1).id(), store.taskRunList(List.of(tasks().get(1).id()), null, 10));
    List<TaskRun> thrower = runs.get(tasks().get(0).id());
    assertThat(thrower)
        .extracting(TaskRun::status)
        .containsExactly(TaskRunStatus.FAILED, TaskRunStatus.FAILED);
    assertThat(thrower.get(0).metadata().get("result").get("error").asText()).contains("disk full");
    assertThat(tasks().get(0).status()).isEqualTo(TaskStatus.DISABLED);
    assertThat(runs.get(tasks().get(1).id()))
        .extracting(TaskRun::status)
        .containsExactly(TaskRunStatus.EVENTFUL, TaskRunStatus.FAILED);
    assertThat(tasks().get(1).status()).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  void neverRunsMoreThanTheTypeGroupAndTotalCaps() throws Exception {
    store.workerGroupUpsert(new WorkerGroup("shared", 3));
    store.taskTypeCreate(TaskType.builder("a").maxWorkers(2).workerGroup("shared").build());
    store.taskTypeCreate(TaskType.builder("b").maxWorkers(2).workerGroup("shared").build());
    store.taskTypeCreate(TaskType.builder("c").maxWorkers(5).build());
    oneshots("a", 20);
    oneshots("b", 20);
    oneshots("c", 20);
    Map<String, AtomicInteger> now = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> peak = new ConcurrentHashMap<>();
    TaskHandler tracked =
        ctx -> {
          String[] keys = {
            ctx.type().name(), ctx.type().workerGroup() == null ? "-" : "group", "total"
          };
          for (String k : keys) {
            int n = now.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet();
            peak.computeIfAbsent(k, x -> new AtomicInteger()).accumulateAndGet(n, Math::max);
          }
          Thread.sleep(5);
          for (String k : keys) {
            now.get(k).decrementAndGet();
          }
          return Outcome.eventful();
        };
    runner(options().withTotalWorkers(6), Map.of("a", tracked, "b", tracked, "c", tracked)).run();

    assertThat(tasks()).allMatch(t -> t.status() == TaskStatus.COMPLETED);
    assertThat(peak.get("a").get()).isBetween(1, 2);
    assertThat(peak.get("b").get()).isBetween(1, 2);
    assertThat(peak.get("group").get()).isLessThanOrEqualTo(3);
    assertThat(peak.get("c").get()).isLessThanOrEqualTo(5);
    assertThat(peak.get("total").get()).isLessThanOrEqualTo(6);
  }

  @Test
  void typesWithoutAHandlerAreLeftAlone() throws Exception {
    store.taskTypeCreate(TaskType.builder("mine").build());
    store.taskTypeCreate(TaskType.builder("someone-elses").build());
    oneshots("mine", 1);
    oneshots("someone-elses", 1);
    runner(options(), Map.of("mine", ctx -> Outcome.eventful())).run();
    assertThat(tasks())
        .extracting(Task::status)
        .containsExactly(TaskStatus.COMPLETED, TaskStatus.NEXT_RUN_NOT_SCHEDULED);
  }

  @Test
  void aRunnerLimitedToSomeTypesClaimsOnlyThose() throws Exception {
    store.taskTypeCreate(TaskType.builder("wanted").build());
    store.taskTypeCreate(TaskType.builder("other").build());
    oneshots("wanted", 2);
    oneshots("other", 2);
    RunnerStats stats =
        runner(
                options().withTypes(Set.of("wanted")),
                Map.of("wanted", ctx -> Outcome.eventful(), "other", ctx -> Outcome.eventful()))
            .run();
    assertThat(stats.claimed()).isEqualTo(2);
    assertThat(tasks())
        .extracting(Task::type, Task::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("wanted", TaskStatus.COMPLETED),
            org.assertj.core.groups.Tuple.tuple("wanted", TaskStatus.COMPLETED),
            org.assertj.core.groups.Tuple.tuple("other", TaskStatus.NEXT_RUN_NOT_SCHEDULED),
            org.assertj.core.groups.Tuple.tuple("other", TaskStatus.NEXT_RUN_NOT_SCHEDULED));
  }

  @Test
  void aStopLetsRunningWorkFinishWithinTheGrace() throws Exception {
    store.taskTypeCreate(TaskType.builder("work").maxWorkers(2).build());
    oneshots("work", 10);
    CountDownLatch started = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    Runner runner =
        runner(
            options().withExitOnIdle(false),
            Map.of(
                "work",
                ctx -> {
                  started.countDown();
                  release.await();
                  return Outcome.eventful();
                }));
    Future<RunnerStats> run = background.submit(runner::run);
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
    runner.stop(Duration.ofMinutes(1));
    release.countDown();
    RunnerStats stats = run.get(30, TimeUnit.SECONDS);
    assertThat(stats.claimed()).isEqualTo(2);
    assertThat(stats.eventful()).isEqualTo(2);
    assertThat(tasks().stream().filter(t -> t.status() == TaskStatus.COMPLETED)).hasSize(2);
    assertThat(tasks().stream().filter(t -> t.status() == TaskStatus.NEXT_RUN_NOT_SCHEDULED))
        .hasSize(8);
  }

  @Test
  void aStopPastItsGraceReleasesWorkWithoutChargingAnAttempt() throws Exception {
    store.taskTypeCreate(TaskType.builder("stuck").numRetries(0).build());
    oneshots("stuck", 1);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    Runner runner =
        runner(
            options().withExitOnIdle(false),
            Map.of(
                "stuck",
                ctx -> {
                  started.countDown();
                  try {
                    new CountDownLatch(1).await();
                  } catch (InterruptedException e) {
                    interrupted.countDown();
                    throw e;
                  }
                  return Outcome.eventful();
                }));
    Future<RunnerStats> run = background.submit(runner::run);
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
    runner.stop(Duration.ZERO);
    RunnerStats stats = run.get(30, TimeUnit.SECONDS);

    assertThat(interrupted.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(stats.released()).isEqualTo(1);
    Task task = tasks().get(0);
    assertThat(task.status())
        .as("due again, not disabled")
        .isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(task.retriesLeft()).isZero();
    TaskRun run0 = store.taskRunList(List.of(task.id()), null, 10).get(0);
    assertThat(run0.metadata().get("released").asBoolean()).isTrue();
  }

  @Test
  void aHandlerPastItsTimeoutIsInterruptedAndFails() throws Exception {
    store.taskTypeCreate(TaskType.builder("slow").timeout(Duration.ofMillis(200)).build());
    oneshots("slow", 1);
    runner(
            options(),
            Map.of(
                "slow",
                ctx -> {
                  new CountDownLatch(1).await();
                  return Outcome.eventful();
                }))
        .run();
    TaskRun run = store.taskRunList(List.of(), null, 10).get(0);
    assertThat(run.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(run.metadata().get("result").get("error").asText()).startsWith("timed out");
  }

  @Test
  @Timeout(60)
  void aTaskDueLaterStartsWhenItComesDueNotAtTheNextPoll() throws Exception {
    store.taskTypeCreate(TaskType.builder("later").build());
    store.taskCreate(
        List.of(
            NewTask.oneshot("later", null)
                .withNextRun(Clock.systemUTC().instant().plusMillis(300))),
        Clock.systemUTC().instant());
    // With a ten-minute poll, only the due-time wake-up can finish this within the test's timeout.
    RunnerStats stats =
        runner(
                options().withPollInterval(Duration.ofMinutes(10)),
                Map.of("later", ctx -> Outcome.eventful()))
            .run();
    assertThat(stats.eventful()).isEqualTo(1);
  }

  @Test
  @Timeout(30)
  void anIdleRunnerKeepsItsLeaderLeaseAndHeartbeatWhenThePollIntervalIsLonger() throws Exception {
    // A ten-minute poll and a short lease: only the loop's own timers can keep them.
    Duration lease = Duration.ofSeconds(3);
    RunnerOptions options =
        options()
            .withExitOnIdle(false)
            .withPollInterval(Duration.ofMinutes(10))
            .withLeaderLease(lease);
    Runner runner = runner(options, Map.of());
    Future<RunnerStats> running = background.submit(runner::run);
    java.time.Instant firstLease = null;
    java.time.Instant firstBeat = null;
    String seen = "nothing yet";
    boolean kept = false;
    java.time.Instant deadline = java.time.Instant.now().plusSeconds(10);
    while (!kept && java.time.Instant.now().isBefore(deadline)) {
      var leader = store.runners().leader(Leadership.SERVICE);
      var row = store.runners().get(options.owner());
      if (leader.isPresent() && row.isPresent()) {
        seen = leader.get() + ", heartbeat " + row.get().heartbeat();
        if (firstLease == null) {
          firstLease = leader.get().leaseUntil();
          firstBeat = row.get().heartbeat();
        } else {
          // Renewed by the same runner before it ran out, and the process row heartbeated.
          kept =
              leader.get().holder().equals(options.owner())
                  && !leader.get().leaseUntil().isBefore(firstLease.plus(lease))
                  && row.get().heartbeat().isAfter(firstBeat);
        }
      }
      Thread.sleep(20);
    }
    assertThat(kept)
        .as("lease renewed and row heartbeated within 10 s; last seen: %s", seen)
        .isTrue();
    assertThat(store.eventList(0, 100))
        .extracting(dev.drover.model.Event::kind)
        .doesNotContain("lost_leadership");
    runner.stop(Duration.ZERO);
    running.get(10, TimeUnit.SECONDS);
  }

  @Test
  void theEventLogShowsTheRunnersLifeAndRescues() throws Exception {
    store.taskTypeCreate(
        TaskType.builder("work").numRetries(1).retryDelay(Duration.ofMillis(10)).build());
    java.time.Instant past = Clock.systemUTC().instant().minusSeconds(20);
    store.taskCreate(List.of(NewTask.oneshot("work", null).withNextRun(past)), past);
    // A runner that died holding a lease: the next runner rescues it, then runs its retry.
    assertThat(
            dev.drover.testing.Passes.claim(
                store,
                store.taskTypeGet("work").orElseThrow(),
                "dead-runner",
                past,
                Duration.ofMillis(100),
                1))
        .hasSize(1);
    RunnerOptions options = options();
    RunnerStats stats = runner(options, Map.of("work", ctx -> Outcome.eventful())).run();
    assertThat(stats.eventful()).isEqualTo(1);

    List<String> kinds =
        store.eventList(0, 100).stream().map(dev.drover.model.Event::kind).toList();
    assertThat(kinds).containsSubsequence("runner_started", "task_rescued", "runner_stopped");
    assertThat(store.eventList(0, 100)).allMatch(e -> e.runner().equals(options.owner()));
    dev.drover.model.Event stopped = store.eventList(0, 100).get(kinds.size() - 1);
    assertThat(stopped.detail().get("rescued").asLong()).isEqualTo(1);
    assertThat(store.eventList(store.eventList(0, 1).get(0).id(), 100)).hasSize(kinds.size() - 1);
  }
}
