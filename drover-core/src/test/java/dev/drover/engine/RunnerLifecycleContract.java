package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.model.Event;
import dev.drover.model.NewTask;
import dev.drover.model.RunnerRecord;
import dev.drover.model.RunnerState;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The runner's life among other runners: the gate (takeover, standby, a dead runner's row), the
 * leader lease, wake-ups on new work and configuration reloads. Runners here share one JVM, so they
 * are alive to each other; the same rules across real processes are tested end to end in
 * drover-app. Mixed into {@link RunnerContractTest}, so it runs on every database.
 */
interface RunnerLifecycleContract {
  Store store();

  /** A second store on the same database, as another process would open. */
  Store openAnother();

  RunnerOptions options();

  Runner runner(RunnerOptions options, Map<String, TaskHandler> handlers);

  ExecutorService background();

  Path dir();

  /** Polls until {@code condition} holds; fails after 30 s. */
  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("still waiting for: " + what).isNegative();
      Thread.sleep(20);
    }
  }

  private List<Event> events(String kind) {
    return store().eventList(0, 10_000).stream().filter(e -> e.kind().equals(kind)).toList();
  }

  private List<Event> events(String kind, RunnerOptions runner) {
    return events(kind).stream().filter(e -> runner.owner().equals(e.runner())).toList();
  }

  private void oneshots(String type, int n) {
    store()
        .taskCreate(
            IntStream.range(0, n)
                .mapToObj(i -> NewTask.oneshot(type, TaskArguments.of(List.of(i), null)))
                .toList(),
            Clock.systemUTC().instant());
  }

  /** One execution of a task by a runner, in nanoTime. */
  record Execution(String runner, long taskId, long start, long end) {}

  private static TaskHandler recording(
      String runner, ConcurrentLinkedQueue<Execution> log, long millis) {
    return ctx -> {
      long start = System.nanoTime();
      Thread.sleep(millis);
      log.add(new Execution(runner, ctx.taskId(), start, System.nanoTime()));
      return Outcome.eventful();
    };
  }

  @Test
  default void aNewcomerAtTheGateTakesOverOnceTheActiveRunnerHasDrained() throws Exception {
    store().taskTypeCreate(TaskType.builder("slow").maxWorkers(2).build());
    oneshots("slow", 12);
    ConcurrentLinkedQueue<Execution> log = new ConcurrentLinkedQueue<>();
    RunnerOptions a =
        options().withExitOnIdle(false).withGate("gate", Duration.ofSeconds(20), false);
    RunnerOptions b = options().withGate("gate", Duration.ofSeconds(20), false);
    // a's work lasts until b has asked it to hand over, however slowly b starts on a busy machine:
    // otherwise a could finish all twelve first and leave b nothing to take over.
    AtomicBoolean aBegan = new AtomicBoolean();
    TaskHandler recordedByA = recording("a", log, 200);
    TaskHandler untilAsked =
        ctx -> {
          aBegan.set(true);
          await("b asks a to hand over", () -> !events("takeover_requested", b).isEmpty());
          return recordedByA.handle(ctx);
        };
    Runner runnerA = runner(a, Map.of("slow", untilAsked));
    Future<RunnerStats> runA = background().submit(runnerA::run);
    await("runner a executes", aBegan::get);
    Future<RunnerStats> runB =
        background().submit(runner(b, Map.of("slow", recording("b", log, 10)))::run);

    RunnerStats statsA = runA.get(60, TimeUnit.SECONDS);
    RunnerStats statsB = runB.get(60, TimeUnit.SECONDS);
    assertThat(runnerA.stopReason()).isEqualTo("taken over by runner " + b.owner());
    // a drained within the grace: what it gave back (claimed ahead, not begun) left no run behind.
    assertThat(store().taskRunList(List.of(), TaskRunStatus.LOST, 100))
        .as("runs a gave back after they began")
        .isEmpty();
    assertThat(statsA.claimed() - statsA.released() + statsB.claimed()).isEqualTo(12);
    assertThat(statsB.claimed()).isPositive();
    long lastOfA =
        log.stream()
            .filter(e -> e.runner().equals("a"))
            .mapToLong(Execution::end)
            .max()
            .orElseThrow();
    long firstOfB =
        log.stream()
            .filter(e -> e.runner().equals("b"))
            .mapToLong(Execution::start)
            .min()
            .orElseThrow();
    assertThat(firstOfB).as("b starts work only after a finished").isGreaterThan(lastOfA);
    assertThat(store().taskSearch(TaskQuery.all()))
        .allMatch(t -> t.status() == TaskStatus.COMPLETED);
    Event stoppedA = events("runner_stopped", a).get(0);
    Event startedB = events("runner_started", b).get(0);
    assertThat(stoppedA.id()).isLessThan(startedB.id());
    assertThat(events("takeover_requested", b)).hasSize(1);
    assertThat(events("runner_took_over", b))
        .singleElement()
        .satisfies(e -> assertThat(e.detail().get("from").asText()).isEqualTo(a.owner()));
    assertThat(events("worker_spawned", a)).isNotEmpty();
    assertThat(store().runners().list()).as("both rows gone").isEmpty();
  }

  @Test
  default void aStandbyWaitsForTheActiveRunnerToGo() throws Exception {
    store().taskTypeCreate(TaskType.builder("work").build());
    RunnerOptions a =
        options().withExitOnIdle(false).withGate("gate", Duration.ofSeconds(5), false);
    // b does not exit when idle: it may become active before the tasks below exist.
    RunnerOptions b = options().withExitOnIdle(false).withGate("gate", Duration.ofSeconds(5), true);
    Runner runnerA = runner(a, Map.of("work", ctx -> Outcome.eventful()));
    Future<RunnerStats> runA = background().submit(runnerA::run);
    await("a is active", () -> !events("runner_started", a).isEmpty());
    CountDownLatch executedByB = new CountDownLatch(3);
    Runner runnerB =
        runner(
            b,
            Map.of(
                "work",
                ctx -> {
                  executedByB.countDown();
                  return Outcome.eventful();
                }));
    Future<RunnerStats> runB = background().submit(runnerB::run);
    await("b is waiting", () -> store().runners().get(b.owner()).isPresent());
    // Waiting is not taking over: a is not asked to stop, and b does not start while a is there.
    Thread.sleep(1000);
    assertThat(store().runners().get(a.owner()).orElseThrow().stopRequestedBy()).isNull();
    assertThat(store().runners().get(b.owner()).orElseThrow().state())
        .isEqualTo(RunnerState.WAITING);
    assertThat(runB.isDone()).isFalse();

    runnerA.stop(Duration.ZERO);
    runA.get(30, TimeUnit.SECONDS);
    oneshots("work", 3);
    assertThat(executedByB.await(30, TimeUnit.SECONDS)).as("b ran the three tasks").isTrue();
    runnerB.stop(Duration.ofSeconds(5));
    RunnerStats statsB = runB.get(30, TimeUnit.SECONDS);
    assertThat(statsB.eventful()).isEqualTo(3);
    assertThat(events("runner_started", b).get(0).id())
        .isGreaterThan(events("runner_stopped", a).get(0).id());
  }

  @Test
  default void aDeadRunnersRowDoesNotBlockTheGateAndItsLeasesAreRescued() throws Exception {
    store()
        .taskTypeCreate(
            TaskType.builder("work").numRetries(2).retryDelay(Duration.ofMillis(1)).build());
    oneshots("work", 2);
    // A runner that died: its pid belonged to a process that has exited.
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Instant now = Clock.systemUTC().instant();
    ProcessIdentity self = ProcessIdentity.current();
    Instant goneStarted = gone.toHandle().info().startInstant().orElse(now.minusSeconds(1));
    store()
        .runners()
        .register(
            new RunnerRecord(
                "dead-runner",
                self.host(),
                gone.pid(),
                goneStarted,
                "gate",
                RunnerState.WAITING,
                now,
                now,
                null,
                null));
    assertThat(store().runners().activate("dead-runner", now)).isTrue();
    TaskType work = store().taskTypeGet("work").orElseThrow();
    assertThat(
            dev.drover.testing.Passes.claim(
                store(), work, "dead-runner", now, Duration.ofHours(1), 1))
        .hasSize(1);

    RunnerOptions b = options().withGate("gate", Duration.ofSeconds(5), false);
    RunnerStats stats = runner(b, Map.of("work", ctx -> Outcome.eventful())).run();

    assertThat(stats.eventful()).as("the dead runner's task and the other one").isEqualTo(2);
    assertThat(events("runner_pruned", b))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.detail().get("runner").asText()).isEqualTo("dead-runner");
              assertThat(e.detail().get("rescued").asInt()).isEqualTo(1);
            });
    assertThat(events("takeover_requested", b)).as("nobody to ask").isEmpty();
    List<TaskRun> runs = store().taskRunList(List.of(), null, 10);
    // The dead runner's claim was never begun: given back uncharged, it leaves no lost run.
    assertThat(runs)
        .extracting(TaskRun::status)
        .containsExactlyInAnyOrder(TaskRunStatus.EVENTFUL, TaskRunStatus.EVENTFUL);
    assertThat(store().runners().list()).isEmpty();
  }

  @Test
  default void oneRunnerLeadsAndAnotherTakesOverWhenItLeaves() throws Exception {
    store().taskTypeCreate(TaskType.builder("work").build());
    // Long enough that a loaded machine renews it in time (a renewal every second).
    Duration lease = Duration.ofSeconds(3);
    RunnerOptions a = options().withExitOnIdle(false).withLeaderLease(lease);
    RunnerOptions b = options().withExitOnIdle(false).withLeaderLease(lease);
    Runner runnerA = runner(a, Map.of("work", ctx -> Outcome.eventful()));
    Runner runnerB = runner(b, Map.of("work", ctx -> Outcome.eventful()));
    Future<RunnerStats> runA = background().submit(runnerA::run);
    await("a leads", () -> !events("became_leader", a).isEmpty());
    Future<RunnerStats> runB = background().submit(runnerB::run);
    await("b runs", () -> !events("runner_started", b).isEmpty());
    // Over two lease lengths a keeps renewing and b never gets in.
    Thread.sleep(lease.multipliedBy(2).toMillis());
    assertThat(events("became_leader", b)).isEmpty();
    assertThat(events("lost_leadership", a)).isEmpty();
    assertThat(store().runners().leader(Leadership.SERVICE).orElseThrow().holder())
        .isEqualTo(a.owner());

    runnerA.stop(Duration.ZERO);
    runA.get(30, TimeUnit.SECONDS);
    await("b leads", () -> !events("became_leader", b).isEmpty());
    assertThat(store().runners().leader(Leadership.SERVICE).orElseThrow().holder())
        .isEqualTo(b.owner());
    runnerB.stop(Duration.ZERO);
    runB.get(30, TimeUnit.SECONDS);
    assertThat(store().runners().leader(Leadership.SERVICE)).as("released on stop").isEmpty();
  }

  @Test
  default void newWorkFromAnotherStoreWakesAnIdleRunnerBeforeItsPoll() throws Exception {
    store().taskTypeCreate(TaskType.builder("work").build());
    CountDownLatch ran = new CountDownLatch(1);
    RunnerOptions a = options().withExitOnIdle(false).withPollInterval(Duration.ofMinutes(10));
    Runner runner =
        runner(
            a,
            Map.of(
                "work",
                ctx -> {
                  ran.countDown();
                  return Outcome.eventful();
                }));
    Future<RunnerStats> run = background().submit(runner::run);
    await("runner idle", () -> !events("runner_started", a).isEmpty());
    Thread.sleep(300);
    try (Store other = openAnother()) {
      other.taskCreate(List.of(NewTask.oneshot("work", null)), Clock.systemUTC().instant());
    }
    // With a ten-minute poll, only a wake-up can run the task within this wait.
    assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    runner.stop(Duration.ZERO);
    run.get(30, TimeUnit.SECONDS);
  }

  @Test
  default void aChangedConfigurationIsAppliedAndABrokenOneReportedWithoutStopping()
      throws Exception {
    Path config = dir().resolve("drover.yaml");
    Files.writeString(config, "task_types:\n  work:\n    max_workers: 1\n");
    RunnerOptions a = options().withExitOnIdle(false).withConfigFile(config, false);
    Runner runner = runner(a, Map.of("work", ctx -> Outcome.eventful()));
    Future<RunnerStats> run = background().submit(runner::run);
    await("runner started", () -> !events("runner_started", a).isEmpty());

    Files.writeString(
        config, "limits:\n  total_workers: 3\ntask_types:\n  work:\n    max_workers: 12\n");
    await("reloaded", () -> !events("config_reloaded", a).isEmpty());
    assertThat(store().taskTypeGet("work").orElseThrow().maxWorkers()).isEqualTo(12);
    assertThat(events("config_reloaded", a).get(0).detail().get("total_workers").asInt())
        .isEqualTo(3);

    Files.writeString(config, "task_types:\n  work:\n    max_workers: lots\n");
    await("reload failed", () -> !events("config_reload_failed", a).isEmpty());
    assertThat(events("config_reload_failed", a).get(0).detail().get("error").asText())
        .contains("max_workers");
    assertThat(store().taskTypeGet("work").orElseThrow().maxWorkers())
        .as("previous kept")
        .isEqualTo(12);
    oneshots("work", 2);
    await(
        "still working",
        () ->
            store().taskSearch(TaskQuery.all()).stream()
                .allMatch(t -> t.status() == TaskStatus.COMPLETED));

    // An explicit reload (SIGHUP) re-reads the file even though it did not change again.
    Files.writeString(config, "task_types:\n  work:\n    max_workers: 2\n");
    runner.requestReload();
    await("reloaded on request", () -> store().taskTypeGet("work").orElseThrow().maxWorkers() == 2);
    runner.stop(Duration.ZERO);
    run.get(30, TimeUnit.SECONDS);
    assertThat(store().taskSearch(TaskQuery.all()))
        .extracting(Task::status)
        .containsOnly(TaskStatus.COMPLETED);
  }
}
