package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.app.ExecutionLog.Execution;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner killed with SIGKILL at random moments, again and again, and restarted: in the end
 * every task is final, none is lost, and no two executions of one task overlap. On SQLite and on
 * PostgreSQL, through the real jar ({@code drover run --daemon}, killed; then {@code drover run}
 * until idle).
 *
 * <p>Each of the 2,000 tasks is a small shell script ({@link #SCRIPT}) that logs its start and end
 * to a side-effect log and checks for itself that no other execution of its task is alive. A killed
 * runner's command processes live on as orphans until its successor, finding it dead at the gate,
 * kills them and rescues its leases; a few long tasks make that matter (see {@link #LONG_EVERY}).
 * Six kills come at random moments after the runner is seen executing, two more at random moments
 * after it is started (during startup, at the gate, or at work).
 *
 * <p>The moments come from a seeded {@link Random}; the seed is printed, and {@code -Dcrash.seed=N}
 * replays it.
 *
 * <p>Linux only, as each subclass says: the script reads /proc, and so does the runner to find
 * orphans.
 */
@Tag("slow")
abstract class CrashIT {
  private static final int TASKS = 2000;

  /**
   * Every so many tasks, one is long: it executes for {@link #LONG_SECONDS} instead of a few tens
   * of milliseconds, and has high priority.
   *
   * <p>Why: a killed runner's processes are orphaned, and only its successor's clearing of dead
   * runners stops them. A short execution ends on its own long before its task comes up again, so
   * it cannot show whether they are stopped. A long one outlives the successor's start and the
   * retry delay; its priority puts its retry ahead of the backlog (a rescued task is due after
   * every waiting one), so it is executed again while its orphan would still run.
   */
  private static final int LONG_EVERY = 500;

  private static final int LONG_SECONDS = 8;

  /** Kills of a runner seen executing tasks, at least five as the issue asks. */
  private static final int KILLS = 6;

  /** Kills at any moment from the JVM's start: during startup, at the gate, or at work. */
  private static final int EARLY_KILLS = 2;

  private static final int MAX_EARLY_KILL_MS = 2500;

  /** Enough that the long tasks in flight leave most workers to the short ones. */
  private static final int WORKERS = 12;

  /** A kill comes this long at most after the runner was seen executing. */
  private static final int MAX_KILL_DELAY_MS = 1500;

  private static final Duration WAIT_LIMIT = Duration.ofSeconds(60);

  /**
   * One execution of task $1, which takes $2 seconds. It appends start and end lines to exec.log
   * (with its pid and its run, DROVER_RUN_ID), and records an overlap in overlaps.log when, as it
   * starts, the task's marker names another execution that is still alive, or when, at its end, the
   * marker no longer names itself. A process is named by pid and start time, because pids are
   * reused (pid_max may be as low as 32768).
   */
  private static final String SCRIPT =
      """
      #!/bin/sh
      task=$1
      dir=@DIR@
      marker=$dir/markers/$task

      # Sets "who" to "<pid> <start time>" of a running process; empty if it is gone or a zombie.
      identify() {
        who=
        if read -r stat 2>/dev/null < "/proc/$1/stat"; then
          set -- $stat
          [ "$3" != Z ] && [ "$3" != X ] && who="$1 ${22}"
        fi
      }

      identify $$
      me=$who
      if read -r other 2>/dev/null < "$marker"; then
        identify "${other%% *}"
        if [ -n "$who" ] && [ "$who" = "$other" ]; then
          echo "overlap $task: $$ ($DROVER_RUN_ID) started while $other runs" >> "$dir/overlaps.log"
        fi
      fi
      echo "$me" > "$marker"
      echo "start $task $$ $(date +%s%N) $DROVER_RUN_ID" >> "$dir/exec.log"
      sleep "$2"
      read -r now 2>/dev/null < "$marker"
      if [ "$now" != "$me" ]; then
        echo "overlap $task: $$ ($DROVER_RUN_ID) lost its marker to '$now' while it ran" >> "$dir/overlaps.log"
      fi
      echo "end $task $$ $(date +%s%N) $DROVER_RUN_ID" >> "$dir/exec.log"
      rm -f "$marker"
      """;

  @TempDir Path tmp;

  /**
   * The run on {@code location}, which {@code store} names on the jar's command line. Each
   * database's run is a class of its own, so that the build's two test JVMs can take one each.
   */
  void crashAndRecover(String name, StoreLocation location, List<Object> store) throws Exception {
    long seed = Long.getLong("crash.seed", System.nanoTime());
    System.out.println(
        "CrashIT " + name + ": seed " + seed + " (replay with -Dcrash.seed=" + seed + ")");
    Random random = new Random(seed);
    Instant began = Instant.now();

    Path work = tmp.resolve("work");
    Files.createDirectories(work.resolve("markers"));
    Path script = Fixtures.write(work.resolve("exec.sh"), SCRIPT.replace("@DIR@", work.toString()));
    Path log = work.resolve("exec.log");
    Path overlaps = work.resolve("overlaps.log");
    DroverCli cli = DroverCli.jar(tmp);
    cli.run(args(store, "init")).ok();
    // Every kill charges a lost attempt to the tasks in flight, so retries are plenty and quick.
    cli.run(
            args(
                store,
                "task-type",
                "add",
                "--name",
                "exec",
                "--num-retries",
                "50",
                "--retry-delay",
                "1s",
                "--max-workers",
                WORKERS,
                "--command",
                "sh",
                "--command",
                script,
                "--command",
                "{args.0}",
                "--command",
                "{args.1}"))
        .ok();
    Path tasks =
        Fixtures.write(
            tmp.resolve("tasks.jsonl"),
            IntStream.range(0, TASKS)
                .mapToObj(
                    i ->
                        i % LONG_EVERY == 0
                            ? "{\"type\": \"exec\", \"policy\": \"oneshot\", \"priority\": \"high\", \"args\": ["
                                + i
                                + ", \""
                                + LONG_SECONDS
                                + "\"]}"
                            : "{\"type\": \"exec\", \"policy\": \"oneshot\", \"args\": ["
                                + i
                                + ", \"0.0"
                                + (2 + i % 3)
                                + "\"]}")
                .collect(Collectors.joining("\n")));
    cli.run(args(store, "task", "add", "--file", tasks)).ok();

    List<String> runnerOutput = new ArrayList<>();
    try {
      // Most kills hit a runner at work; a few hit one anywhere from JVM start to work (the gate).
      List<Boolean> early = new ArrayList<>();
      IntStream.range(0, KILLS + EARLY_KILLS).forEach(k -> early.add(k < EARLY_KILLS));
      java.util.Collections.shuffle(early, random);
      for (int k = 0; k < early.size(); k++) {
        long before = Files.exists(log) ? Files.size(log) : 0;
        DroverCli.Started runner = cli.start(args(store, "run", "--daemon", "--workers", WORKERS));
        // DroverCli starts `java -jar` itself, so this process is the runner's JVM.
        String when;
        if (early.get(k)) {
          int delay = random.nextInt(MAX_EARLY_KILL_MS);
          Thread.sleep(delay);
          when = delay + " ms after it was started";
        } else {
          awaitExecuting(runner, log, before);
          int delay = random.nextInt(MAX_KILL_DELAY_MS);
          Thread.sleep(delay);
          when = delay + " ms after it was seen executing";
        }
        runner.process().destroyForcibly(); // SIGKILL
        DroverCli.Result killed = runner.finish(30);
        assertThat(killed.exitCode()).as("killed runner %d: %s", k, killed).isEqualTo(137);
        runnerOutput.add(
            "runner "
                + k
                + " (pid "
                + runner.process().pid()
                + ", killed "
                + when
                + "):\n"
                + tail(killed.stderr(), 15));
        System.out.println(
            "CrashIT "
                + name
                + ": killed runner "
                + k
                + " (pid "
                + runner.process().pid()
                + ") "
                + when
                + "; log has "
                + ExecutionLog.lines(log).size()
                + " lines");
      }
      DroverCli.Result last = cli.run(args(store, "run", "--workers", WORKERS, "--json"));
      runnerOutput.add("final runner:\n" + tail(last.stderr(), 15));
      last.ok();
      System.out.println(
          "CrashIT "
              + name
              + ": final run "
              + last.stdout().trim()
              + "; "
              + Duration.between(began, Instant.now()).toMillis()
              + " ms in all");

      verify(location, log, overlaps, script);
    } catch (AssertionError | RuntimeException e) {
      System.err.println(diagnostics(name, seed, location, log, overlaps, runnerOutput));
      throw e;
    }
  }

  private void verify(StoreLocation location, Path log, Path overlaps, Path script)
      throws Exception {
    assertThat(ExecutionLog.lines(overlaps)).as("overlaps the tasks saw themselves").isEmpty();

    Map<String, String> taskStatus = new TreeMap<>();
    Map<String, List<String>> runs = new TreeMap<>();
    List<String> succeededRuns = new ArrayList<>();
    try (Connection c = connect(location);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT id, status FROM task")) {
        while (rs.next()) {
          taskStatus.put(rs.getString(1), rs.getString(2));
        }
      }
      try (ResultSet rs =
          s.executeQuery("SELECT task, status, backend_id FROM task_run ORDER BY id")) {
        while (rs.next()) {
          runs.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
          if (!rs.getString(2).equals("lost")) {
            succeededRuns.add(rs.getString(3));
          }
        }
      }
    }
    assertThat(taskStatus).hasSize(TASKS);
    assertThat(taskStatus.entrySet())
        .as("tasks not completed")
        .filteredOn(e -> !e.getValue().equals("completed"))
        .isEmpty();
    List<String> badHistory = new ArrayList<>();
    long lost = 0;
    for (String task : taskStatus.keySet()) {
      List<String> history = runs.getOrDefault(task, List.of());
      long succeeded =
          history.stream().filter(st -> st.equals("eventful") || st.equals("uneventful")).count();
      long others = history.stream().filter(st -> !st.equals("lost")).count() - succeeded;
      lost += history.size() - succeeded - others;
      if (succeeded != 1 || others != 0) {
        badHistory.add("task " + task + ": " + history);
      }
    }
    assertThat(badHistory)
        .as("tasks without exactly one successful run and only lost runs besides")
        .isEmpty();
    assertThat(lost).as("lost runs: the kills hit work in flight").isPositive();

    Map<String, List<Execution>> executions = ExecutionLog.byTask(log);
    assertThat(executions).as("tasks executed").hasSize(TASKS);
    assertThat(executions.entrySet())
        .as("tasks without one complete execution")
        .filteredOn(e -> e.getValue().stream().noneMatch(Execution::complete))
        .isEmpty();
    assertThat(ExecutionLog.overlaps(executions))
        .as("executions of one task overlapping in time")
        .isEmpty();
    Set<String> completeRuns =
        executions.values().stream()
            .flatMap(List::stream)
            .filter(Execution::complete)
            .map(Execution::run)
            .collect(Collectors.toSet());
    assertThat(succeededRuns)
        .as("successful runs without a complete execution in the log")
        .filteredOn(run -> !completeRuns.contains(run))
        .isEmpty();

    try (Connection c = connect(location);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT name FROM runner")) {
      assertThat(rs.next())
          .as("runners left in the process table: killed ones are cleared by their successor")
          .isFalse();
    }
    try (Drover drover = Drover.open(location)) {
      long orphansKilled =
          drover.store().eventList(0, 1_000_000).stream()
              .filter(e -> e.kind().equals("runner_pruned"))
              .mapToLong(e -> e.detail().path("orphans_killed").asLong())
              .sum();
      assertThat(orphansKilled)
          .as("task processes the killed runners left behind, killed by their successors")
          .isPositive();
    }
    assertThat(
            ProcessHandle.allProcesses()
                .filter(
                    p ->
                        p.info()
                            .arguments()
                            .map(a -> List.of(a).contains(script.toString()))
                            .orElse(false))
                .map(ProcessHandle::pid)
                .toList())
        .as("task processes still running after the last run")
        .isEmpty();
  }

  /**
   * Waits until an execution started after byte {@code before} of the log: the runner is working.
   * (Ends are no sign of it: the processes its killed predecessor left behind log theirs.)
   */
  private static void awaitExecuting(DroverCli.Started runner, Path log, long before)
      throws Exception {
    Instant deadline = Instant.now().plus(WAIT_LIMIT);
    while (!startedSince(log, before)) {
      if (!runner.process().isAlive()) {
        throw new AssertionError(
            "the runner exited before executing anything:\n" + runner.finish(1));
      }
      if (Instant.now().isAfter(deadline)) {
        runner.process().destroyForcibly();
        throw new AssertionError(
            "the runner executed nothing within "
                + WAIT_LIMIT
                + "; stderr:\n"
                + runner.stderrSoFar());
      }
      Thread.sleep(20);
    }
  }

  private static boolean startedSince(Path log, long offset) throws IOException {
    if (!Files.exists(log)) {
      return false;
    }
    try (SeekableByteChannel in = Files.newByteChannel(log)) {
      in.position(offset);
      String since = new String(Channels.newInputStream(in).readAllBytes(), StandardCharsets.UTF_8);
      return since.startsWith("start ") || since.contains("\nstart ");
    }
  }

  private String diagnostics(
      String name,
      long seed,
      StoreLocation location,
      Path log,
      Path overlaps,
      List<String> runnerOutput) {
    StringBuilder b = new StringBuilder("---- CrashIT " + name + " failed; seed " + seed + "\n");
    b.append("-- overlaps.log:\n").append(ExecutionLog.tail(overlaps, 20)).append('\n');
    b.append("-- exec.log, last lines:\n").append(ExecutionLog.tail(log, 30)).append('\n');
    runnerOutput.forEach(o -> b.append("-- ").append(o).append('\n'));
    b.append(EventDigest.of(location));
    return b.toString();
  }

  private static Connection connect(StoreLocation location) throws SQLException {
    return DriverManager.getConnection(
        location.isSqlite()
            ? "jdbc:sqlite:" + location.dataDir().resolve(StoreLocation.DATABASE_FILE)
            : location.jdbcUrl());
  }

  private static Object[] args(List<Object> store, Object... more) {
    List<Object> all = new ArrayList<>(store);
    all.addAll(List.of(more));
    return all.toArray();
  }

  private static String tail(String text, int n) {
    List<String> lines = text.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
  }
}
