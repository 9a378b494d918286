package dev.drover.app;

import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.engine.CommandRunner;
import dev.drover.engine.RunnerStats;
import dev.drover.engine.WaitNote;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.store.Store;
import dev.drover.store.TaskWaiting;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;

/**
 * The live line {@code drover run} rewrites on a terminal every half second: per task type, the
 * tasks due and running (from the store), the runs this runner finished and failed (counted as its
 * workers return them), and the overall rate. One thread draws; the line is cut to the terminal,
 * and log lines printed meanwhile pass above it ({@link LiveLine}).
 */
final class RunProgress implements AutoCloseable {
  private static final long PERIOD_MS = 500;

  /** Due tasks are counted up to this many per type; more shows as {@code 1000+}. */
  private static final int DUE_SHOWN = 1000;

  private static final int DONE = 0;
  private static final int FAILED = 1;

  private final Store store;
  private final Clock clock;
  private final LiveLine live;
  private PrintStream logs;
  private final Map<String, AtomicLongArray> finished = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "drover-progress");
            t.setDaemon(true);
            return t;
          });
  private List<String> types = List.of();
  private RunnerStats stats;
  private Supplier<TaskWaiting> waiting = () -> TaskWaiting.NONE;
  private Instant started;

  RunProgress(Store store, Clock clock, PrintWriter out) {
    this.store = store;
    this.clock = clock;
    this.live = new LiveLine(out, System.err);
  }

  /** {@code commands}, counting each outcome under its task type. */
  CommandRunner counting(CommandRunner commands) {
    return (type, arguments, runDir, env) ->
        count(type.name(), commands.run(type, arguments, runDir, env));
  }

  /** {@code handlers}, counting each outcome (or exception: a failure) under its task type. */
  Map<String, TaskHandler> counting(Map<String, TaskHandler> handlers) {
    Map<String, TaskHandler> counted = new HashMap<>();
    handlers.forEach(
        (name, handler) ->
            counted.put(
                name,
                context -> {
                  try {
                    return count(name, handler.handle(context));
                  } catch (InterruptedException e) {
                    throw e;
                  } catch (Exception e) {
                    count(name, null);
                    throw e;
                  }
                }));
    return counted;
  }

  /** Starts drawing the line for {@code types} from {@code stats}. */
  void start(
      List<String> shownTypes, RunnerStats runnerStats, Supplier<TaskWaiting> runnerWaiting) {
    types = List.copyOf(shownTypes);
    stats = runnerStats;
    waiting = runnerWaiting;
    started = clock.instant();
    // Log lines (to System.err, which the logger looks up at each line) now pass around the line.
    logs = System.err;
    System.setErr(live.logStream());
    timer.scheduleWithFixedDelay(this::draw, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
  }

  /** Stops drawing, draws the last line and ends it. */
  @Override
  public void close() throws InterruptedException {
    timer.shutdownNow();
    timer.awaitTermination(5, TimeUnit.SECONDS);
    if (stats != null) {
      draw();
      live.end();
      System.err.flush();
      System.setErr(logs);
    }
  }

  private Outcome count(String type, Outcome outcome) {
    boolean ok =
        outcome != null
            && (outcome.status() == TaskRunStatus.EVENTFUL
                || outcome.status() == TaskRunStatus.UNEVENTFUL);
    finished.computeIfAbsent(type, t -> new AtomicLongArray(2)).incrementAndGet(ok ? DONE : FAILED);
    return outcome;
  }

  private void draw() {
    String line;
    try {
      line = line();
    } catch (RuntimeException e) {
      return; // the store is busy or closing: skip this frame
    }
    int width = width();
    if (line.length() > width) {
      line = line.substring(0, width - 3) + "...";
    }
    live.show(line);
  }

  String line() {
    Instant now = clock.instant();
    Map<String, Long> running = new HashMap<>();
    for (StatusCount c : store.taskCountByTypeAndStatus()) {
      if (c.status() == TaskStatus.NEXT_RUN_SCHEDULED) {
        running.merge(c.type(), c.count(), Long::sum);
      }
    }
    StringBuilder line = new StringBuilder();
    for (String type : types) {
      int due =
          store
              .taskSearch(
                  new TaskQuery(
                      null,
                      List.of(type),
                      List.of(TaskStatus.NEXT_RUN_NOT_SCHEDULED),
                      null,
                      null,
                      now,
                      null,
                      DUE_SHOWN + 1))
              .size();
      AtomicLongArray f = finished.getOrDefault(type, new AtomicLongArray(2));
      line.append(type)
          .append(": ")
          .append(due > DUE_SHOWN ? DUE_SHOWN + "+" : Integer.toString(due))
          .append(" due, ")
          .append(running.getOrDefault(type, 0L))
          .append(" running, ")
          .append(f.get(DONE))
          .append(" done, ")
          .append(f.get(FAILED))
          .append(" failed | ");
    }
    long ended = stats.eventful() + stats.uneventful() + stats.failed();
    double seconds = Math.max(0.001, Duration.between(started, now).toMillis() / 1000.0);
    line.append(String.format(java.util.Locale.ROOT, "%.1f runs/s", ended / seconds));
    // While nothing is due but something will be, say what and when, counting down each frame.
    TaskWaiting w = waiting.get();
    String note = WaitNote.describe(w, now, ZoneId.systemDefault());
    if (note != null) {
      Instant next = w.firstRetry() != null ? w.firstRetry() : w.firstLater();
      if (w.firstLater() != null && w.firstLater().isBefore(next)) {
        next = w.firstLater();
      }
      long in = Math.max(0, Duration.between(now, next).toSeconds());
      line.append(" | waiting: ").append(note).append(" (next in ").append(in).append("s)");
    }
    return line.toString();
  }

  /** The terminal's width from $COLUMNS when the shell exports it, else a conservative 120. */
  private static int width() {
    try {
      return Math.max(
          40, Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "120").trim()) - 1);
    } catch (NumberFormatException e) {
      return 119;
    }
  }
}
