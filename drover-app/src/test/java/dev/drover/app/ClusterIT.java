package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.app.ExecutionLog.Execution;
import dev.drover.model.Event;
import dev.drover.store.StoreLocation;
import dev.drover.testing.TestPostgres;
import java.io.IOException;
import java.net.URISyntaxException;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three runner processes on one PostgreSQL share 20,000 tasks: each task executes exactly once and
 * every runner does some of the work; then the leader is killed with SIGKILL and another runner
 * leads within one leader lease.
 *
 * <p>The runners are separate JVMs running the engine's {@link dev.drover.engine.Runner} through
 * {@link ClusterRunner} (the shaded jar's classes plus that one test class), with a Java handler
 * that appends to a shared side-effect log: spawning 20,000 commands would take minutes on a
 * two-core machine. The tasks, the task type and the database are set up with the real CLI.
 */
@Tag("slow")
@Tag("cluster")
class ClusterIT {
  private static final int TASKS = 20_000;
  private static final int BATCHES = 4;
  private static final int RUNNERS = 3;
  private static final int WORKERS = 8;
  private static final Duration LEADER_LEASE = Duration.ofSeconds(3);
  private static final Duration WAIT_LIMIT = Duration.ofSeconds(240);

  @TempDir Path tmp;

  private final List<Process> runners = new ArrayList<>();

  @AfterEach
  void stopRunners() throws InterruptedException {
    runners.forEach(Process::destroy); // SIGTERM: a graceful stop
    for (Process p : runners) {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  @Test
  void threeRunnersExecuteEachTaskOnceAndAnotherLeadsWithinOneLeaseOfTheLeadersDeath()
      throws Exception {
    String url = TestPostgres.freshUrl();
    Path log = tmp.resolve("exec.log");
    DroverCli cli = DroverCli.jar(tmp).env("DROVER_DB", url);
    cli.run("init").ok();
    cli.run("task-type", "add", "--name", ClusterRunner.TYPE, "--max-workers", WORKERS).ok();

    Instant began = Instant.now();
    for (int i = 0; i < RUNNERS; i++) {
      runners.add(startRunner(url, i, log));
    }
    try {
      // The tasks arrive in batches while the runners run; NOTIFY wakes them for each.
      for (int batch = 0; batch < BATCHES; batch++) {
        int from = batch * TASKS / BATCHES;
        String lines =
            IntStream.range(from, from + TASKS / BATCHES)
                .mapToObj(
                    i ->
                        "{\"type\": \""
                            + ClusterRunner.TYPE
                            + "\", \"policy\": \"oneshot\", \"args\": ["
                            + i
                            + "]}")
                .collect(Collectors.joining("\n"));
        Path tasks = Fixtures.write(tmp.resolve("tasks-" + batch + ".jsonl"), lines);
        // the type is executed by ClusterRunner's own handler, not by drover run
        cli.run("task", "add", "--file", tasks, "--allow-unexecutable").ok();
      }
      awaitCompleted(url);
      Duration took = Duration.between(began, Instant.now());
      System.out.println(
          "ClusterIT: "
              + TASKS
              + " tasks added and done by "
              + RUNNERS
              + " runners in "
              + took.toMillis()
              + " ms");
      verifyExactlyOnce(url, log);
      failOver(url);
    } catch (AssertionError | RuntimeException e) {
      System.err.println(diagnostics(url, log));
      throw e;
    }
  }

  private void verifyExactlyOnce(String url, Path log) throws SQLException {
    Map<String, List<String[]>> runs = new HashMap<>();
    Map<String, Long> pids = new HashMap<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT task, status, owner, backend_id FROM task_run")) {
        while (rs.next()) {
          runs.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
              .add(new String[] {rs.getString(2), rs.getString(3), rs.getString(4)});
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT name, pid FROM runner")) {
        while (rs.next()) {
          pids.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    assertThat(pids).as("runners in the process table").hasSize(RUNNERS);
    assertThat(runs).as("tasks with runs").hasSize(TASKS);
    assertThat(runs.entrySet())
        .as("tasks without exactly one run, eventful")
        .filteredOn(e -> e.getValue().size() != 1 || !e.getValue().get(0)[0].equals("eventful"))
        .isEmpty();
    Map<String, Long> perRunner =
        runs.values().stream()
            .collect(Collectors.groupingBy(r -> r.get(0)[1], TreeMap::new, Collectors.counting()));
    System.out.println("ClusterIT: runs per runner " + perRunner);
    assertThat(perRunner.keySet())
        .as("every runner did work")
        .containsExactlyInAnyOrderElementsOf(pids.keySet());

    Map<String, List<Execution>> executions = ExecutionLog.byTask(log);
    assertThat(executions).as("tasks executed").hasSize(TASKS);
    List<String> notOnce = new ArrayList<>();
    executions.forEach(
        (task, list) -> {
          String[] run =
              runs.containsKey(task)
                  ? runs.get(task).get(0)
                  : new String[] {"none", "none", "none"};
          Execution e = list.get(0);
          if (list.size() != 1
              || !e.complete()
              || !e.run().equals(run[2])
              || !Long.valueOf(e.pid()).equals(pids.get(run[1]))) {
            notOnce.add(list + " for run " + String.join(" ", run));
          }
        });
    assertThat(notOnce).as("tasks not executed exactly once, by the runner of their run").isEmpty();
  }

  private void failOver(String url) throws Exception {
    String leader;
    long pid;
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT l.holder, r.pid FROM leader l JOIN runner r ON r.name = l.holder WHERE l.service = 'runner'")) {
      assertThat(rs.next()).as("a leader").isTrue();
      leader = rs.getString(1);
      pid = rs.getLong(2);
    }
    Process victim =
        runners.stream()
            .filter(p -> p.pid() == pid)
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError("the leader " + leader + " is none of the runners started"));
    Instant killedAt = Instant.now();
    victim.destroyForcibly(); // SIGKILL
    victim.waitFor();
    System.out.println("ClusterIT: killed the leader " + leader + " (pid " + pid + ")");

    Event next =
        awaitEvent(
            url,
            e ->
                e.kind().equals("became_leader")
                    && !leader.equals(e.runner())
                    && !e.at().isBefore(killedAt));
    Duration failover = Duration.between(killedAt, next.at());
    System.out.println(
        "ClusterIT: "
            + next.runner()
            + " became leader "
            + failover.toMillis()
            + " ms after the leader was killed (lease "
            + LEADER_LEASE.toMillis()
            + " ms)");
    assertThat(failover)
        .as("time from the leader's death to a new leader")
        .isLessThanOrEqualTo(LEADER_LEASE);
    Event pruned =
        awaitEvent(
            url,
            e ->
                e.kind().equals("runner_pruned")
                    && leader.equals(e.detail().path("runner").asText()));
    System.out.println(
        "ClusterIT: " + pruned.runner() + " cleared the dead leader away: " + pruned.detail());
  }

  private Event awaitEvent(String url, Predicate<Event> wanted) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    try (Drover drover = Drover.open(StoreLocation.postgres(url))) {
      while (true) {
        Optional<Event> found =
            drover.store().eventList(0, 1_000_000).stream().filter(wanted).findFirst();
        if (found.isPresent()) {
          return found.get();
        }
        if (Instant.now().isAfter(deadline)) {
          throw new AssertionError("no such event within a minute");
        }
        Thread.sleep(100);
      }
    }
  }

  private void awaitCompleted(String url) throws Exception {
    Instant deadline = Instant.now().plus(WAIT_LIMIT);
    long done = 0;
    while (done < TASKS) {
      for (Process p : runners) {
        if (!p.isAlive()) {
          throw new AssertionError("runner pid " + p.pid() + " exited with " + p.exitValue());
        }
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            "only " + done + " of " + TASKS + " tasks completed within " + WAIT_LIMIT);
      }
      Thread.sleep(500);
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*) FROM task WHERE status = 'completed'")) {
        rs.next();
        done = rs.getLong(1);
      }
    }
  }

  private Process startRunner(String url, int i, Path log) throws IOException {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:TieredStopAtLevel=1",
            "-Duser.timezone=America/Los_Angeles",
            "-Duser.language=tr",
            "-Duser.country=TR",
            "-cp",
            testClasses() + java.io.File.pathSeparator + droverJar(),
            ClusterRunner.class.getName(),
            url,
            tmp.resolve("data-" + i).toString(),
            log.toString(),
            Long.toString(LEADER_LEASE.toMillis()),
            Integer.toString(WORKERS));
    return new ProcessBuilder(command)
        .directory(tmp.toFile())
        .redirectOutput(tmp.resolve("runner-" + i + ".out").toFile())
        .redirectError(tmp.resolve("runner-" + i + ".err").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
  }

  /** The shaded jar that {@code mvn verify} built: the engine and its dependencies, as shipped. */
  private static String droverJar() {
    String jar = System.getProperty("drover.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "set -Ddrover.jar to the shaded jar (mvn verify does), got " + jar);
    }
    return jar;
  }

  /** Where this test's classes are, so that a runner JVM finds {@link ClusterRunner}. */
  private static Path testClasses() {
    try {
      return Path.of(
          ClusterRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private String diagnostics(String url, Path log) {
    StringBuilder b = new StringBuilder("---- ClusterIT failed\n");
    b.append("-- exec.log, last lines:\n").append(ExecutionLog.tail(log, 20)).append('\n');
    for (int i = 0; i < runners.size(); i++) {
      b.append("-- runner ")
          .append(i)
          .append(" (pid ")
          .append(runners.get(i).pid())
          .append(") stderr:\n")
          .append(ExecutionLog.tail(tmp.resolve("runner-" + i + ".err"), 20))
          .append('\n');
    }
    b.append(EventDigest.of(StoreLocation.postgres(url)));
    return b.toString();
  }
}
