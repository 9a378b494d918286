package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.model.Event;
import dev.drover.model.NewTask;
import dev.drover.model.RunnerRecord;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runner processes on one data dir, through the real jar: a newcomer takes over after the active
 * runner drains, a standby waits, a runner killed with SIGKILL blocks nobody and leaves no process
 * behind, and SIGHUP reloads the configuration. On every database (subclasses). The setup, and a
 * run to the end after a kill, run in process.
 */
abstract class RunnerProcessIT {
  private static final String CONFIG =
      """
      task_types:
        gated:
          max_workers: 2
          command: [sh, -c, "while [ ! -e \\"$0\\" ]; do sleep 0.05; done", "{args.0}"]
        hang:
          num_retries: 0
          command: [sh, -c, "echo $$ > \\"$0\\"; exec sleep 59.25", "{args.0}"]
      """;

  @TempDir Path tmp;

  /** Options naming the database (e.g. --db URL), put before the command. */
  abstract List<Object> dbOptions();

  abstract StoreLocation location();

  private Path data() {
    return tmp.resolve("data");
  }

  private Object[] args(Object... command) {
    List<Object> all = new ArrayList<>(List.of("--data-dir", data()));
    all.addAll(dbOptions());
    all.addAll(List.of(command));
    return all.toArray();
  }

  /** A command to its end, in process: the runners under test are the ones {@link #start}ed. */
  private DroverCli.Result drover(Object... command) {
    return DroverCli.in(tmp).run(args(command));
  }

  /** A runner in a process of its own, through the real jar, to signal or kill. */
  private DroverCli.Started start(Object... command) {
    return DroverCli.jar(tmp).start(args(command));
  }

  private void init() {
    Fixtures.write(data().resolve("drover.yaml"), CONFIG);
    drover("init").ok();
  }

  private List<Event> events(Drover api, String kind) {
    return api.store().eventList(0, 100_000).stream().filter(e -> e.kind().equals(kind)).toList();
  }

  @Test
  void aSecondRunnerTakesOverOnlyAfterTheFirstHasDrainedAndLeft() throws Exception {
    init();
    DroverCli.Started first = null;
    try (Drover api = Drover.open(location())) {
      // Every task waits for the gate, opened only once the first runner has heard the newcomer ask
      // to take over: it cannot drain the queue before then, however long the newcomer takes.
      Path gate = tmp.resolve("gate");
      api.taskCreate(
          IntStream.range(0, 20)
              .mapToObj(
                  i ->
                      NewTask.oneshot("gated", TaskArguments.of(List.of(gate.toString(), i), null)))
              .toList());
      first = start("run", "--daemon", "--workers", "2", "--json");
      waitFor(() -> !api.taskRuns(List.of(), null, 10).isEmpty(), first);
      DroverCli.Started second = start("run", "--json", "--takeover-grace", "30s");
      DroverCli.Started draining = first;
      waitFor(() -> draining.stderrSoFar().contains("takes over this data dir"), first);
      Files.createFile(gate);

      DroverCli.Result a = first.finish(60);
      assertThat(a.exitCode()).as(a.toString()).isZero();
      assertThat(a.json().get("stopped").asText()).startsWith("taken over by runner");
      DroverCli.Result b = second.finish(120);
      assertThat(b.exitCode()).as(b.toString()).isZero();

      assertThat(api.taskSearch(TaskQuery.all()))
          .extracting(Task::status)
          .containsOnly(TaskStatus.COMPLETED);
      Map<String, List<TaskRun>> byRunner =
          api.taskRuns(List.of(), null, 1000).stream()
              .collect(Collectors.groupingBy(r -> r.metadata().get("worker").asText()));
      assertThat(byRunner).hasSize(2);
      String firstOwner = events(api, "runner_started").get(0).runner();
      List<TaskRun> ofFirst = byRunner.get(firstOwner);
      List<TaskRun> ofSecond =
          byRunner.entrySet().stream()
              .filter(e -> !e.getKey().equals(firstOwner))
              .findFirst()
              .orElseThrow()
              .getValue();
      assertThat(ofFirst)
          .as("drained, none released")
          .allMatch(r -> r.status() == TaskRunStatus.EVENTFUL);
      Instant lastEnd = ofFirst.stream().map(TaskRun::ended).max(Instant::compareTo).orElseThrow();
      Instant firstStart =
          ofSecond.stream().map(TaskRun::started).min(Instant::compareTo).orElseThrow();
      assertThat(firstStart)
          .as("the newcomer claims nothing before the old runner is done")
          .isAfterOrEqualTo(lastEnd);
      assertThat(events(api, "runner_took_over"))
          .singleElement()
          .satisfies(e -> assertThat(e.detail().get("from").asText()).isEqualTo(firstOwner));
      assertThat(api.store().runners().list()).isEmpty();
    } finally {
      if (first != null) {
        first.process().destroyForcibly();
      }
    }
  }

  @Test
  void aStandbyStartsOnlyAfterTheActiveRunnerIsGone() throws Exception {
    init();
    DroverCli.Started active = start("run", "--daemon");
    DroverCli.Started standby = null;
    try (Drover api = Drover.open(location())) {
      waitFor(() -> events(api, "runner_started").size() == 1, active);
      standby = start("run", "--standby", "--json");
      waitFor(() -> api.store().runners().list().size() == 2, standby);
      Thread.sleep(2000);
      assertThat(active.process().isAlive()).isTrue();
      assertThat(standby.process().isAlive()).as("still waiting").isTrue();
      assertThat(api.store().runners().list())
          .extracting(RunnerRecord::stopRequestedBy)
          .containsOnlyNulls();
      assertThat(events(api, "runner_started")).hasSize(1);

      active.process().destroy(); // SIGTERM
      assertThat(active.finish(60).exitCode()).isZero();
      DroverCli.Result b = standby.finish(60);
      assertThat(b.exitCode()).as(b.toString()).isZero();
      List<Event> started = events(api, "runner_started");
      assertThat(started).hasSize(2);
      assertThat(started.get(1).id()).isGreaterThan(events(api, "runner_stopped").get(0).id());
    } finally {
      active.process().destroyForcibly();
      if (standby != null) {
        standby.process().destroyForcibly();
      }
    }
  }

  @Test
  void aRunnerKilledWithSigkillBlocksNobodyAndLeavesNoProcessBehind() throws Exception {
    init();
    Path pidFile = tmp.resolve("hang.pid");
    drover(
            "task",
            "add",
            "--type",
            "hang",
            "--policy",
            "oneshot",
            "--args",
            "[\"" + pidFile + "\"]")
        .ok();
    DroverCli.Started killed = start("run", "--daemon");
    try (Drover api = Drover.open(location())) {
      waitFor(() -> Files.exists(pidFile) && !readPid(pidFile).isEmpty(), killed);
      // Its start is written by the pass after the worker began it; a claim killed before that
      // looks never begun, and is given back uncharged rather than rescued as lost.
      waitFor(() -> !api.taskRuns(List.of(), TaskRunStatus.STARTED, 1).isEmpty(), killed);
      long orphan = Long.parseLong(readPid(pidFile));
      killed.process().destroyForcibly(); // SIGKILL: no chance to clean up
      killed.process().waitFor();
      assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive))
          .as("its command outlives it")
          .contains(true);

      DroverCli.Result next = drover("run", "--json");
      assertThat(next.exitCode()).as(next.toString()).isZero();
      waitFor(() -> ProcessHandle.of(orphan).map(p -> !p.isAlive()).orElse(true), null);
      assertThat(events(api, "runner_pruned"))
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.detail().get("rescued").asInt()).isEqualTo(1);
                assertThat(e.detail().get("orphans_killed").asInt()).isGreaterThanOrEqualTo(1);
              });
      TaskRun run = api.taskRuns(List.of(), null, 10).get(0);
      assertThat(run.status()).isEqualTo(TaskRunStatus.LOST);
      assertThat(run.metadata().get("rescued").asBoolean()).isTrue();
      assertThat(api.store().runners().list()).isEmpty();
    } finally {
      killed.process().destroyForcibly();
    }
  }

  /**
   * Issue 12: a crawl spawns three pages and its run ends (children written with that end); the
   * runner is killed with SIGKILL while the pages execute. Its successor rescues them, they are
   * retried, and the crawl is sealed: no child twice, the crawl run once, its counters whole.
   */
  @Test
  void aParentWhoseRunnerIsKilledAfterItsChildrenWereWrittenIsSealedOnceWithoutDuplicates()
      throws Exception {
    init();
    Path go = tmp.resolve("go");
    Path crawl =
        Fixtures.write(
            tmp.resolve("crawl.sh"),
            "for p in a b c; do echo '{\"spawn\": {\"type\": \"page\", \"args\": [\"'$p'\"]}}';"
                + " done\n");
    Path page =
        Fixtures.write(
            tmp.resolve("page.sh"),
            "[ -e '" + go + "' ] && exit 0\necho $$ > '" + tmp + "'/page-$1.pid\nexec sleep 59\n");
    DroverCli.Started killed = null;
    try (Drover api = Drover.open(location())) {
      api.taskTypeCreate(
          TaskType.builder("crawl").command(List.of("sh", crawl.toString())).build());
      api.taskTypeCreate(
          TaskType.builder("page")
              .command(List.of("sh", page.toString(), "{args.0}"))
              .numRetries(3)
              .retryDelay(Duration.ZERO)
              .build());
      long parent =
          api.taskCreate(List.of(NewTask.oneshot("crawl", TaskArguments.empty()))).get(0).id();
      killed = start("run", "--daemon");
      waitFor(
          () ->
              Stream.of("a", "b", "c")
                      .allMatch(p -> Files.exists(tmp.resolve("page-" + p + ".pid")))
                  && !api.taskRuns(
                          api.taskChildren(parent, 0, 10).stream().map(Task::id).toList(),
                          TaskRunStatus.STARTED,
                          1)
                      .isEmpty(),
          killed);
      assertThat(api.task(parent).orElseThrow().status())
          .isEqualTo(TaskStatus.WAITING_FOR_CHILDREN);
      killed.process().destroyForcibly(); // SIGKILL, with the children executing
      killed.process().waitFor();
      Files.createFile(go);

      DroverCli.Result next = drover("run", "--json");
      assertThat(next.exitCode()).as(next.toString()).isZero();

      List<Task> children = api.taskChildren(parent, 0, 100);
      assertThat(children).hasSize(3);
      assertThat(children).extracting(Task::status).containsOnly(TaskStatus.COMPLETED);
      assertThat(children)
          .extracting(t -> t.arguments().args().get(0).asText())
          .containsExactlyInAnyOrder("a", "b", "c");
      assertThat(api.task(parent).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
      assertThat(api.taskRuns(List.of(parent), null, 10))
          .singleElement()
          .extracting(TaskRun::status)
          .isEqualTo(TaskRunStatus.EVENTFUL);
      TaskFamily family = api.taskFamily(parent).orElseThrow();
      assertThat(family.childrenTotal()).isEqualTo(3);
      assertThat(family.childrenPending()).isZero();
      assertThat(family.childrenFailed()).isZero();
      assertThat(api.taskSearch(TaskQuery.all())).hasSize(4);
    } finally {
      if (killed != null) {
        killed.process().destroyForcibly();
      }
    }
  }

  @Test
  void sighupReloadsTheConfigurationWithoutStopping() throws Exception {
    init();
    DroverCli.Started daemon = start("run", "--daemon");
    try (Drover api = Drover.open(location())) {
      waitFor(() -> events(api, "runner_started").size() == 1, daemon);
      Fixtures.write(
          data().resolve("drover.yaml"), CONFIG.replace("max_workers: 2", "max_workers: 5"));
      waitFor(
          () ->
              api.taskType("gated").orElseThrow().maxWorkers() == 5
                  && events(api, "config_reloaded").size() == 1,
          daemon);
      if (sighupIgnoredHere()) {
        // Started under nohup, the daemon inherits SIGHUP ignored and cannot handle it: it says so.
        daemon.process().destroy();
        DroverCli.Result r = daemon.finish(60);
        assertThat(r.stderr()).contains("SIGHUP is ignored by this process");
        return;
      }
      // The file has not changed since: only the signal can cause a second reload.
      new ProcessBuilder("kill", "-HUP", Long.toString(daemon.process().pid())).start().waitFor();
      waitFor(() -> events(api, "config_reloaded").size() == 2, daemon);
      assertThat(daemon.process().isAlive()).isTrue();
      daemon.process().destroy();
      DroverCli.Result r = daemon.finish(60);
      assertThat(r.exitCode()).as(r.toString()).isZero();
      assertThat(r.stderr()).contains("SIGHUP", "reloaded");
    } finally {
      daemon.process().destroyForcibly();
    }
  }

  private static String readPid(Path file) {
    try {
      return Files.readString(file).trim();
    } catch (java.io.IOException e) {
      return "";
    }
  }

  private static void waitFor(BooleanSupplier condition, DroverCli.Started process)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            "condition not met within 60s"
                + (process == null ? "" : "; stderr so far:\n" + process.stderrSoFar()));
      }
      Thread.sleep(100);
    }
  }

  /**
   * Whether this JVM (and so every process it starts) has SIGHUP ignored, as under nohup (Linux).
   */
  private static boolean sighupIgnoredHere() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseLong(line.substring("SigIgn:".length()).trim(), 16) & 1L)
            != 0; // bit 0: signal 1
      }
    }
    return false;
  }
}
