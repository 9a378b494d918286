package dev.drover.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.model.NewTask;
import dev.drover.model.RunHistory;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import dev.drover.store.Claim;
import dev.drover.store.ClaimRequest;
import dev.drover.store.Completion;
import dev.drover.store.Pass;
import dev.drover.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A burn-down by the store alone: one thread runs the store's passes back to back, each writing the
 * ends of the tasks the pass before it claimed and claiming the next batch, as a runner's pass
 * does, with no runner around them: no workers, no handoff, no waiting. What it reaches is the most
 * a runner can reach with these writes on that database from one thread; on SQLite, whose one
 * writer takes every runner's writes in turn, it bounds them all. docs/benchmarks.md ("SQLite's
 * ceiling: the store's own writes") compares the runner's burn-down with it. A measurement, not a
 * test.
 *
 * <pre>
 * java -cp drover-bench/target/drover-bench.jar dev.drover.bench.StoreBurndown \
 *     postgres|sqlite [TASKS] [BATCH] [all|failures]
 * </pre>
 *
 * The same burn-down runs once first, unmeasured, on the same store, so that the JVM has compiled
 * the store's code.
 */
public final class StoreBurndown {
  private static final String TYPE = "t";
  private static final String OWNER = "store-burndown";
  private static final int INSERT_BATCH = 1000;

  private StoreBurndown() {}

  public static void main(String[] args) throws Exception {
    ToolArgs tool =
        new ToolArgs("StoreBurndown", "postgres|sqlite [TASKS] [BATCH] [all|failures]", args, 3);
    Kind kind = tool.kind();
    int tasks = tool.count(1, "TASKS", 1, 100_000);
    int batch = tool.count(2, "BATCH", 1, 1024);
    RunHistory history = RunHistory.ALL;
    if (tool.text(3) != null) {
      try {
        history = RunHistory.parse("HISTORY", tool.text(3));
      } catch (ValidationException e) {
        throw tool.refuse(e.getMessage());
      }
    }
    Result r = measure(kind, tasks, batch, history);
    System.out.printf(
        Locale.ROOT,
        "%s, %d tasks, claims of %d, run history %s: %.0f jobs/s, %.1f us per job%n",
        kind.label(),
        tasks,
        batch,
        history.dbName(),
        tasks / (r.nanos() / 1e9),
        r.nanos() / 1e3 / tasks);
  }

  /**
   * The measured burn-down's time in nanoseconds, and what the store holds at the end, warm-up
   * included: tasks completed, and runs in the history.
   */
  record Result(long nanos, long completed, long runs) {}

  static Result measure(Kind kind, int tasks, int batch, RunHistory history) throws Exception {
    try (Databases databases = Databases.temporary("drover-store-burndown", Map.of())) {
      BenchDb db = databases.fresh(kind, "store-burndown");
      try (Drover drover = Drover.open(db.droverLocation())) {
        drover.taskTypeCreate(
            TaskType.builder(TYPE)
                .description("drover-bench task")
                .maxWorkers(batch)
                .runHistory(history)
                .build());
        TaskType type = drover.taskType(TYPE).orElseThrow();
        create(drover, tasks);
        burnDown(drover.store(), type, batch);
        create(drover, tasks);
        long start = System.nanoTime();
        burnDown(drover.store(), type, batch);
        long nanos = System.nanoTime() - start;
        long completed =
            drover.statusCounts().stream()
                .filter(c -> c.status() == TaskStatus.COMPLETED)
                .mapToLong(StatusCount::count)
                .sum();
        long runs =
            PeerDataSources.count(PeerDataSources.direct(db), "SELECT count(*) FROM task_run");
        return new Result(nanos, completed, runs);
      }
    }
  }

  private static void create(Drover drover, int tasks) {
    List<NewTask> chunk = new ArrayList<>(INSERT_BATCH);
    for (int i = 0; i < tasks; i++) {
      chunk.add(NewTask.oneshot(TYPE, TaskArguments.of(List.of(i), null)));
      if (chunk.size() == INSERT_BATCH || i == tasks - 1) {
        drover.taskCreate(chunk);
        chunk.clear();
      }
    }
  }

  /**
   * Passes until one claims nothing: each ends, as eventful, every run the one before claimed, and
   * claims up to {@code batch} more.
   */
  private static void burnDown(Store store, TaskType type, int batch) {
    ClaimRequest request = new ClaimRequest(type, type.lease(), batch, PriorityShares.DEFAULT);
    List<Claim> held = List.of();
    do {
      Instant now = Instant.now();
      List<Completion> ends = new ArrayList<>(held.size());
      for (Claim c : held) {
        ends.add(new Completion(c.lease(), TaskRunStatus.EVENTFUL, result(), now, c));
      }
      held = store.taskPass(new Pass(OWNER, now, List.of(), ends, List.of(request))).claimed();
    } while (!held.isEmpty());
  }

  /** A run's metadata as a runner ends it: its handler's result. */
  private static ObjectNode result() {
    ObjectNode metadata = Json.object();
    metadata.set("result", Json.object());
    return metadata;
  }
}
