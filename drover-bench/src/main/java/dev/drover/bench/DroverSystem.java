package dev.drover.bench;

import dev.drover.Drover;
import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerOptions;
import dev.drover.model.NewTask;
import dev.drover.model.RunHistory;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.FrontierStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drover embedded as an application would: the {@link Drover} facade to create tasks and an
 * in-process {@link Runner} in daemon mode with a Java handler, on the bench's database.
 */
final class DroverSystem implements SystemUnderTest {
  private static final String TYPE = "bench-noop";
  private static final int INSERT_BATCH = 1000;

  /** The name of Drover with a task type that keeps only failed runs in its history. */
  static final String FAILURES_ONLY = "drover-failures-only";

  private final String name;
  private final RunHistory history;
  private Drover drover;
  private Runner runner;
  private Thread loop;
  private volatile Throwable loopFailure;
  private final Map<String, String> configuration = new LinkedHashMap<>();

  DroverSystem(String name, RunHistory history) {
    this.name = name;
    this.history = history;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean supports(String workload) {
    return true;
  }

  @Override
  public Map<String, String> configuration() {
    return configuration;
  }

  @Override
  public Duration pickupPauseSpread(Settings settings) {
    return Duration
        .ZERO; // the store wakes the runner on every enqueue: no poll phase to spread over
  }

  @Override
  public void open(BenchDb db, Settings settings, Probe probe) {
    drover = Drover.open(db.droverLocation());
    drover.taskTypeCreate(
        TaskType.builder(TYPE)
            .description("no-op task of drover-bench")
            .maxWorkers(settings.workers())
            .runHistory(history)
            .build());
    TaskHandler noop =
        context -> {
          probe.started(context.arguments().args().get(0).asLong());
          return Outcome.eventful();
        };
    RunnerOptions options =
        RunnerOptions.defaults(db.dir().resolve("runs"))
            .withTotalWorkers(settings.workers())
            .withPollInterval(settings.pollInterval())
            .withExitOnIdle(false);
    configuration.put("totalWorkers", Integer.toString(settings.workers()));
    configuration.put("pollInterval", settings.pollInterval().toMillis() + " ms (fallback)");
    configuration.put(
        "wake-up",
        db.kind() == Kind.SQLITE ? "in process on every insert" : "LISTEN/NOTIFY on every insert");
    configuration.put("insert batch", INSERT_BATCH + " tasks per taskCreate call");
    configuration.put("run history", history.dbName());
    runner =
        drover
            .runner(options.runsDir())
            .options(options)
            .handler(TYPE, noop)
            .commands(
                (type, arguments, runDir, env) -> {
                  throw new IllegalStateException("drover-bench has no command task types");
                })
            .build();
  }

  /**
   * Takes {@code opened} as this system's Drover, for a workload that opens the store its own way
   * and runs a runner of its own ({@link #drover}); {@link #close} closes it.
   */
  void use(Drover opened) {
    drover = opened;
  }

  /** The crawl frontier of the opened store, for the frontier workload. */
  FrontierStore frontier() {
    return drover.store().frontier();
  }

  /** The opened Drover, for workloads that run a runner of their own. */
  Drover drover() {
    return drover;
  }

  @Override
  public void insertBatch(long from, int count) {
    List<NewTask> batch = new ArrayList<>(INSERT_BATCH);
    for (long seq = from; seq < from + count; seq++) {
      batch.add(task(seq));
      if (batch.size() == INSERT_BATCH || seq == from + count - 1) {
        drover.taskCreate(batch);
        batch.clear();
      }
    }
  }

  @Override
  public void startWorkers() {
    loop =
        new Thread(
            () -> {
              try {
                runner.run();
              } catch (Throwable t) {
                loopFailure = t;
              }
            },
            "bench-drover-runner");
    loop.setDaemon(true);
    loop.start();
  }

  @Override
  public void enqueue(long seq) {
    // Creating the task wakes the runner: in process on SQLite, and by NOTIFY on PostgreSQL too.
    drover.taskCreate(List.of(task(seq)));
  }

  private static NewTask task(long seq) {
    // Distinct arguments per task: Drover de-duplicates tasks with equal arguments.
    return NewTask.oneshot(TYPE, TaskArguments.of(List.of(seq), null));
  }

  @Override
  public long completed() {
    if (loopFailure != null) {
      throw new IllegalStateException("the runner died", loopFailure);
    }
    return drover.statusCounts().stream()
        .filter(c -> c.type().equals(TYPE) && c.status() == TaskStatus.COMPLETED)
        .mapToLong(StatusCount::count)
        .sum();
  }

  @Override
  public void close() throws InterruptedException {
    if (loop != null) {
      runner.stop(Duration.ofSeconds(5));
      loop.join(Duration.ofSeconds(30).toMillis());
    }
    if (drover != null) {
      drover.close();
    }
  }
}
