package dev.drover.engine;

import dev.drover.Outcome;
import dev.drover.TaskContext;
import dev.drover.TaskHandler;
import dev.drover.engine.command.Orphans;
import dev.drover.model.RunHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Queue;

/**
 * What worker threads do: take the queued runs of one type, one after another, execute each with
 * its handler or command, and signal the outcome to the loop. Workers never touch the database.
 */
final class Execution {
  private final Map<String, TaskHandler> handlers;
  private final CommandRunner commands;
  private final Clock clock;
  private final RunnerOptions options;
  private final Signals signals;
  private final WorkerPool workers;

  /** Set when the loop is gone: workers take no further queued run. */
  private volatile boolean closed;

  Execution(
      Map<String, TaskHandler> handlers,
      CommandRunner commands,
      Clock clock,
      RunnerOptions options,
      Signals signals,
      WorkerPool workers) {
    this.handlers = Map.copyOf(handlers);
    this.commands = commands;
    this.clock = clock;
    this.options = options;
    this.signals = signals;
    this.workers = workers;
  }

  /** Puts a worker on each queued run that has a free slot of its type. Loop thread only. */
  void dispatch(RunBook book, Slots slots, TaskTypes types) {
    for (Map.Entry<String, Queue<HeldRun>> e : book.queues().entrySet()) {
      Queue<HeldRun> queue = e.getValue();
      HeldRun first = queue.peek();
      if (first == null) {
        continue;
      }
      String type = e.getKey();
      int n = Math.min(slots.free(types.get(type).orElse(first.type)), queue.size());
      for (; n > 0; n--) {
        book.slotTaken(type);
        workers.submit(() -> work(type, queue));
      }
    }
  }

  /** Stops the workers: they take no further queued run, and those executing are interrupted. */
  void close() {
    closed = true;
    workers.shutdownNow();
  }

  /** A worker's turn on one slot of {@code type}: its queued runs, one after another. */
  void work(String type, Queue<HeldRun> queue) {
    try {
      HeldRun r;
      while (!closed && (r = queue.poll()) != null) {
        execute(r);
      }
    } finally {
      signals.slotFreed(type);
    }
  }

  private void execute(HeldRun r) {
    if (!r.begin(Thread.currentThread(), clock.instant())) {
      signals.finished(r, null); // cancelled while queued: its lease is the loop's business
      return;
    }
    Outcome outcome;
    try {
      outcome = attempt(r);
    } catch (InterruptedException e) {
      outcome =
          r.cancelled() == HeldRun.Cancel.TIMEOUT
              ? Outcome.failed("timed out after " + r.type.timeout())
              : null; // lease lost or given back: the loop handles the lease
    } catch (Exception e) {
      outcome = Outcome.failed(String.valueOf(e));
    } finally {
      r.end(clock.instant());
      Thread.interrupted(); // an interrupt meant for this run must not reach the next one
    }
    signals.finished(r, outcome);
  }

  private Outcome attempt(HeldRun r) throws Exception {
    String runId = r.claim.run().backendId();
    Path runDir = r.runDir(options.runsDir());
    if (r.type.command() != null) {
      r.leftRunDir = true;
      Map<String, String> env =
          Map.of(
              "DROVER_TASK_ID",
              Long.toString(r.taskId()),
              "DROVER_RUN_ID",
              runId,
              Orphans.RUNNER_ENV,
              options.owner());
      return commands.run(r.type, r.claim.task().arguments(), runDir, env);
    }
    TaskContext context =
        new TaskContext(r.claim.task(), runId, r.lease().attempt(), r.type, runDir);
    Outcome o;
    try {
      o = handlers.get(r.type.name()).handle(context);
    } finally {
      // Only a type whose successes leave nothing behind needs to know (UnkeptRunDirs).
      r.leftRunDir = r.type.runHistory() == RunHistory.FAILURES && Files.isDirectory(runDir);
    }
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    return o == null ? Outcome.failed("handler returned no outcome") : o;
  }
}
