package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Outcome;
import dev.drover.TaskHandler;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A runner takes the tasks created alone in its process as they are created, when it has a worker
 * slot free ({@link dev.drover.store.CreateClaimer}): they start without a claim of their own, run
 * once, and a create that fails leaves the runner as if it had not been tried. Mixed into {@link
 * RunnerContractTest}, so it runs on every database.
 */
interface CreateClaimRunnerContract {
  Store store();

  Store openAnother(StoreOptions options);

  RunnerOptions options();

  ExecutorService background();

  Runner runner(RunnerOptions options, Map<String, TaskHandler> handlers);

  /** Polls until {@code condition} holds; fails after 30 s. */
  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("still waiting for: " + what).isNegative();
      Thread.sleep(10);
    }
  }

  private static NewTask job(String name) {
    return NewTask.oneshot("job", TaskArguments.of(List.of(name), Map.of()));
  }

  private static Task create(Store s, String name) {
    return s.taskCreate(List.of(job(name)), Clock.systemUTC().instant()).get(0);
  }

  private static boolean done(Store s, long id) {
    return s.taskGet(List.of(id)).get(0).status() == TaskStatus.COMPLETED;
  }

  /** Counts each task's executions, and holds the task named "held" until {@code release}. */
  private static TaskHandler counting(Map<Long, AtomicInteger> executions, CountDownLatch release) {
    return ctx -> {
      executions.computeIfAbsent(ctx.taskId(), k -> new AtomicInteger()).incrementAndGet();
      if (ctx.arguments().args().get(0).asText().equals("held")) {
        release.await();
      }
      return Outcome.eventful();
    };
  }

  /**
   * The type "job" and a runner of it on two worker slots that stays when idle, its handler {@link
   * #counting}.
   */
  private Runner twoSlotJobRunner(Map<Long, AtomicInteger> executions, CountDownLatch release) {
    store().taskTypeCreate(TaskType.builder("job").build());
    return runner(
        options().withExitOnIdle(false).withTotalWorkers(2),
        Map.of("job", counting(executions, release)));
  }

  private void assertRanOnceWithOneRun(Store s, Map<Long, AtomicInteger> executions, long id) {
    assertThat(executions.get(id)).as("executions of task " + id).hasValue(1);
    List<TaskRun> runs = s.taskRunList(List.of(id), null, 10);
    assertThat(runs).extracting(TaskRun::status).containsExactly(TaskRunStatus.EVENTFUL);
  }

  @Test
  default void aTaskCreatedWhileTheRunnerHasASlotFreeStartsWithoutAClaimOfItsOwnAndRunsOnce()
      throws Exception {
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    Runner runner = twoSlotJobRunner(executions, new CountDownLatch(0));
    Future<RunnerStats> run = background().submit(runner::run);
    try {
      Task first = create(store(), "first");
      await("the first task done", () -> done(store(), first.id()));

      Task second = create(store(), "second");
      assertThat(second.status())
          .as("claimed by its create")
          .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
      await("the second task done", () -> done(store(), second.id()));
      assertRanOnceWithOneRun(store(), executions, first.id());
      assertRanOnceWithOneRun(store(), executions, second.id());
    } finally {
      runner.stop(Duration.ofSeconds(5));
    }
    RunnerStats stats = run.get(30, TimeUnit.SECONDS);
    assertThat(stats.claimed()).isEqualTo(2);
    assertThat(stats.leasesLost()).isZero();
  }

  /**
   * While one task runs on one of two slots, the other slot is offered. The room used to subtract
   * the queued run a worker was on its way to as well as that worker's slot, so it stayed at none
   * until the next dispatch, which a running task does not bring.
   */
  @Test
  default void aTaskCreatedWhileAnotherRunsOnTheOtherSlotIsClaimedByItsCreate() throws Exception {
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    CountDownLatch release = new CountDownLatch(1);
    Runner runner = twoSlotJobRunner(executions, release);
    Future<RunnerStats> run = background().submit(runner::run);
    try {
      Task held = create(store(), "held");
      await("the held task begun", () -> executions.containsKey(held.id()));

      Task second = create(store(), "second");

      assertThat(second.status())
          .as("claimed by its create while the other slot runs a task")
          .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
      await("the second task begun", () -> executions.containsKey(second.id()));
    } finally {
      release.countDown();
      runner.stop(Duration.ofSeconds(5));
    }
    assertThat(run.get(30, TimeUnit.SECONDS).leasesLost()).isZero();
  }

  @Test
  default void aRunnerAskedToStopTakesNoTaskAsItIsCreated() throws Exception {
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    CountDownLatch release = new CountDownLatch(1);
    Runner runner = twoSlotJobRunner(executions, release);
    Future<RunnerStats> run = background().submit(runner::run);
    Task held = create(store(), "held");
    await("the held task begun", () -> executions.containsKey(held.id()));

    runner.stop(Duration.ofSeconds(30)); // it still runs the held task, with a slot free
    Task late = create(store(), "late");
    release.countDown();
    RunnerStats stats = run.get(30, TimeUnit.SECONDS);

    assertThat(late.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(store().taskGet(List.of(late.id())).get(0).status())
        .isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(store().taskRunList(List.of(late.id()), null, 10)).isEmpty();
    assertThat(executions).doesNotContainKey(late.id());
    assertRanOnceWithOneRun(store(), executions, held.id());
    assertThat(stats.claimed()).isEqualTo(1);
  }

  /**
   * The create of a task the runner would take fails at its statement or its commit: nothing is
   * written, the runner never holds the task, and the next create is claimed and runs. (That the
   * slot is given back is CreateClaimsTest's: four workers leave room here even while the held task
   * has a second worker put on it by a second dispatch, until the next pass corrects that.)
   */
  @ParameterizedTest
  @ValueSource(strings = {"taskInsertClaimed", FaultProbe.COMMIT})
  default void aCreateThatFailsLeavesTheRunnerAsIfItHadNotBeenTried(String step) throws Exception {
    store().taskTypeCreate(TaskType.builder("job").build());
    Store probed =
        openAnother(
            StoreOptions.DEFAULT.withProbe(
                new FaultProbe(step, Set.of(1), Set.of("taskInsertClaimed"))));
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    CountDownLatch release = new CountDownLatch(1);
    Runner runner =
        new RunnerBuilder(probed, options().runsDir())
            .options(options().withExitOnIdle(false).withTotalWorkers(4))
            .handlers(Map.of("job", counting(executions, release)))
            .build();
    Future<RunnerStats> run = background().submit(runner::run);
    try {
      // Created through another store, which no runner takes tasks from: claimed by a pass.
      Task held = create(store(), "held");
      await("the held task begun", () -> executions.containsKey(held.id()));

      assertThatThrownBy(() -> create(probed, "failed")).hasMessageContaining("injected fault");
      assertThat(store().taskSearch(TaskQuery.all()))
          .extracting(Task::id)
          .as("nothing written")
          .containsExactly(held.id());

      Task next = create(probed, "next");
      assertThat(next.status())
          .as("the slot offered again")
          .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
      await("the next task done", () -> done(store(), next.id()));
      release.countDown();
      await("the held task done", () -> done(store(), held.id()));
      runner.stop(Duration.ofSeconds(5));
      RunnerStats stats = run.get(30, TimeUnit.SECONDS);

      assertRanOnceWithOneRun(store(), executions, held.id());
      assertRanOnceWithOneRun(store(), executions, next.id());
      assertThat(executions).hasSize(2);
      assertThat(stats.claimed()).isEqualTo(2);
      assertThat(stats.leasesLost()).isZero();
    } finally {
      release.countDown();
      runner.stop(Duration.ofSeconds(5));
      probed.close();
    }
  }

  /**
   * A task claimed as it is created starts without waiting for the loop's other round trips: the
   * loop is held in a read of one of them (its housekeeping's read of the worker groups, the
   * leader's read of the runners, or the query of the next due time while another task's result
   * waits to be written), the task is created meanwhile, and once the loop goes on its worker must
   * start before the loop's next statement. The loop used to put workers on such a task only after
   * the pass that followed, so the task waited for the pass's claims and, on PostgreSQL, for its
   * results' commit. (Reads, since on SQLite a create waits for a write the loop holds open.)
   */
  @ParameterizedTest
  @ValueSource(strings = {"workerGroupList", "runnerList", "taskNextDue"})
  default void aTaskClaimedAsItIsCreatedStartsBeforeTheLoopsNextStatement(String heldIn)
      throws Exception {
    store().taskTypeCreate(TaskType.builder("job").build());
    LoopHeld probe = new LoopHeld();
    Store probed = openAnother(StoreOptions.DEFAULT.withProbe(probe));
    Map<Long, AtomicInteger> executions = new ConcurrentHashMap<>();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch heldReturned = new CountDownLatch(1);
    TaskHandler counting = counting(executions, release);
    TaskHandler handler =
        ctx -> {
          try {
            return counting.handle(ctx);
          } finally {
            heldReturned.countDown(); // the first to return is the held task's
          }
        };
    Runner runner =
        new RunnerBuilder(probed, options().runsDir())
            .options(options().withExitOnIdle(false).withTotalWorkers(4))
            .handlers(Map.of("job", handler))
            .build();
    Future<RunnerStats> run = background().submit(runner::run);
    try {
      // A task is running, so the loop waits for due times of its type, and when it ends its
      // result is the next pass's work.
      Task held = create(probed, "held");
      await("the held task begun", () -> executions.containsKey(held.id()));
      probe.hold(heldIn);
      assertThat(probe.awaitHeld()).as("the loop reached " + heldIn).isTrue();
      if (heldIn.equals("taskNextDue")) {
        release.countDown(); // its worker tells the loop the result while the loop is held
        assertThat(heldReturned.await(30, TimeUnit.SECONDS)).as("the held task returned").isTrue();
        Thread.sleep(100); // the worker's signal to the loop follows its handler's return
      }
      Task late = create(probed, "late");
      assertThat(late.status())
          .as("claimed by its create")
          .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
      probe.letGoAndWatchFor(() -> executions.containsKey(late.id()));

      assertThat(probe.startedBeforeTheLoopsNextStatement())
          .as(
              "the task created while the loop was held in %s started before its next statement",
              heldIn)
          .isTrue();
      release.countDown();
      await("the late task done", () -> done(store(), late.id()));
      await("the held task done", () -> done(store(), held.id()));
      runner.stop(Duration.ofSeconds(5));
      RunnerStats stats = run.get(30, TimeUnit.SECONDS);
      assertRanOnceWithOneRun(store(), executions, held.id());
      assertRanOnceWithOneRun(store(), executions, late.id());
      assertThat(stats.leasesLost()).isZero();
    } finally {
      probe.letGo();
      release.countDown();
      runner.stop(Duration.ofSeconds(5));
      probed.close();
    }
  }

  /**
   * Holds the first statement named {@link #hold} on whichever thread runs it (the runner's loop),
   * until {@link #letGoAndWatchFor}; then holds that thread's next statement until a condition
   * holds (at most 5 s) and tells whether it held by then.
   */
  final class LoopHeld implements dev.drover.store.StoreProbe {
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch goOn = new CountDownLatch(1);
    private final CountDownLatch watched = new CountDownLatch(1);
    private volatile String statement;
    private volatile Thread loop;
    private volatile BooleanSupplier condition;
    private volatile Boolean held;

    void hold(String statement) {
      this.statement = statement;
    }

    boolean awaitHeld() throws InterruptedException {
      return reached.await(30, TimeUnit.SECONDS);
    }

    void letGoAndWatchFor(BooleanSupplier condition) {
      this.condition = condition;
      goOn.countDown();
    }

    void letGo() {
      goOn.countDown();
    }

    boolean startedBeforeTheLoopsNextStatement() throws InterruptedException {
      assertThat(watched.await(30, TimeUnit.SECONDS)).as("the loop ran a next statement").isTrue();
      return held;
    }

    @Override
    public void beforeStatement(String queryName) {
      String s = statement;
      if (s != null && loop == null && queryName.equals(s)) {
        loop = Thread.currentThread();
        reached.countDown();
        await(goOn);
        return;
      }
      if (loop == Thread.currentThread() && condition != null && held == null) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
          sleepAMillisecond();
        }
        held = condition.getAsBoolean();
        watched.countDown();
      }
    }

    private static void sleepAMillisecond() {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private static void await(CountDownLatch latch) {
      try {
        latch.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
