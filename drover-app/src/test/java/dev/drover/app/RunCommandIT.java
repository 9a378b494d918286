package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover run}: until idle and only some types (in process), and stopped by SIGTERM (the real
 * jar, which alone can take a signal).
 */
class RunCommandIT {
  /**
   * Command types (argv with sh -c: no shell unless the command asks for one) and the built-in
   * checksum.
   */
  private static final String CONFIG =
      """
      limits:
        total_workers: 3
      task_types:
        hello:
          default_interval: 1h
          command: [sh, -c, "echo hi"]
        quiet:
          command: [sh, -c, "echo '{{\\"status\\": \\"uneventful\\"}}'"]
        broken:
          num_retries: 0
          command: [sh, -c, "echo broken >&2; exit 3"]
        checksum:
          num_retries: 0
        slow:
          num_retries: 2
          command: [sleep, "{args.0}"]
      """;

  @TempDir Path tmp;

  private Path data() {
    return tmp.resolve("data");
  }

  private DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = data();
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.in(tmp).run(all);
  }

  @Test
  void runsUntilIdleAndLeavesEveryTaskFinal() throws Exception {
    // drover.yaml in the data directory: run applies it first, as init does.
    Fixtures.write(data().resolve("drover.yaml"), CONFIG);
    drover("init").ok();
    Path summed = Fixtures.write(tmp.resolve("summed.txt"), "some bytes\n");
    drover("task", "add", "--type", "hello").ok();
    drover("task", "add", "--type", "hello", "--args", "[2]").ok();
    drover("task", "add", "--type", "quiet", "--policy", "oneshot").ok();
    drover("task", "add", "--type", "broken", "--policy", "oneshot").ok();
    drover(
            "task",
            "add",
            "--type",
            "checksum",
            "--policy",
            "oneshot",
            "--args",
            "[\"" + summed + "\"]")
        .ok();

    JsonNode onlyQuiet = drover("run", "--type", "quiet", "--json").ok().json();
    assertThat(onlyQuiet.get("claimed").asInt()).isEqualTo(1);
    assertThat(onlyQuiet.get("uneventful").asInt()).isEqualTo(1);

    DroverCli.Result run = drover("run", "--json").ok();
    JsonNode summary = run.json();
    assertThat(summary.get("stopped").asText()).isEqualTo("idle");
    assertThat(summary.get("claimed").asInt()).isEqualTo(4);
    assertThat(summary.get("eventful").asInt()).isEqualTo(3);
    assertThat(summary.get("failed").asInt()).isEqualTo(1);
    assertThat(run.stderr()).contains("applied", "started (total workers 3)", "stopped");

    assertThat(drover("task", "list", "--json").ok().json()).as("due now").isEmpty();
    Map<String, String> statuses =
        StreamSupport.stream(
                drover("task", "list", "--all", "--json").ok().json().spliterator(), false)
            .filter(t -> !t.get("type").asText().equals("hello"))
            .collect(Collectors.toMap(t -> t.get("type").asText(), t -> t.get("status").asText()));
    assertThat(statuses)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("quiet", "completed", "broken", "disabled", "checksum", "completed"));

    try (Drover api = Drover.open(StoreLocation.dataDir(data()))) {
      Task hello =
          api.taskSearch(dev.drover.model.TaskQuery.all()).stream()
              .filter(t -> t.type().equals("hello"))
              .findFirst()
              .orElseThrow();
      assertThat(hello.nextRun()).isAfter(Instant.now().plus(Duration.ofMinutes(50)));
      TaskRun helloRun = api.taskRuns(List.of(hello.id()), null, 1).get(0);
      assertThat(helloRun.status()).isEqualTo(TaskRunStatus.EVENTFUL);
      Path out =
          data()
              .resolve("runs")
              .resolve("hello")
              .resolve(helloRun.backendId())
              .resolve("stdout.log");
      assertThat(Files.readString(out)).isEqualTo("hi\n");
      TaskRun sum = api.taskRuns(List.of(idOf(api, "checksum")), null, 1).get(0);
      assertThat(sum.metadata().get("result").get("sha256").asText()).matches("[0-9a-f]{64}");
      assertThat(sum.metadata().get("result").get("files").asInt()).isEqualTo(1);
      TaskRun broken = api.taskRuns(List.of(idOf(api, "broken")), null, 1).get(0);
      assertThat(broken.metadata().get("result").get("error").asText())
          .contains("exit code 3", "broken");
    }

    JsonNode again = drover("run", "--json").ok().json();
    assertThat(again.get("claimed").asInt()).as("nothing left to do").isZero();
    assertThat(drover("run").ok().stdout()).contains("idle", "Claimed 0 tasks");
  }

  @Test
  void runSaysWhatItWaitsForWhileARetryIsPending() {
    drover("init").ok();
    drover(
            "task-type",
            "add",
            "--name",
            "flaky",
            "--num-retries",
            "1",
            "--retry-delay",
            "2s",
            "--command",
            "false")
        .ok();
    drover("task", "add", "--type", "flaky", "--policy", "oneshot").ok();
    DroverCli.Result run = drover("run", "--json").ok();
    assertThat(run.json().get("failed").asInt()).as("the run and its retry").isEqualTo(2);
    assertThat(run.stderr()).contains("1 task retries at ", "; nothing else due");
  }

  @Test
  void runExitsWhenARecurringTasksLastRunFailedAndOnlyItsNextRegularRunIsLeft() {
    drover("init").ok();
    drover("task-type", "add", "--name", "rf", "--default-interval", "1h", "--command", "false")
        .ok();
    drover("task", "add", "--type", "rf").ok();
    // Before the fix this never returned (InProcess gives up after its generous timeout).
    JsonNode summary = drover("run", "--json").ok().json();
    assertThat(summary.get("stopped").asText()).isEqualTo("idle");
    assertThat(summary.get("failed").asInt()).isEqualTo(1);
  }

  @Test
  void daemonReleasesRunningWorkOnSigtermAndExitsZero() throws Exception {
    Fixtures.write(data().resolve("drover.yaml"), CONFIG);
    drover("init").ok();
    // An unusual duration, so that the sleep can be told from any other on this machine.
    String sleep = "29.75";
    long id =
        drover(
                "task",
                "add",
                "--type",
                "slow",
                "--policy",
                "oneshot",
                "--args",
                "[\"" + sleep + "\"]",
                "--json")
            .ok()
            .json()
            .get(0)
            .get("id")
            .asLong();

    DroverCli.Started daemon =
        DroverCli.jar(tmp).start("--data-dir", data(), "run", "--daemon", "--grace", "1s");
    try (Drover api = Drover.open(StoreLocation.dataDir(data()))) {
      waitFor(
          () ->
              api.task(id).orElseThrow().status() == TaskStatus.NEXT_RUN_SCHEDULED
                  && sleeping(sleep),
          Duration.ofSeconds(60),
          daemon);
      Instant signalled = Instant.now();
      daemon.process().destroy(); // SIGTERM
      DroverCli.Result r = daemon.finish(60);
      assertThat(r.exitCode()).as(r.toString()).isZero();
      assertThat(Duration.between(signalled, Instant.now())).isLessThan(Duration.ofSeconds(20));
      assertThat(r.stdout())
          .contains("stopped on request", "Claimed 1 task", "1 released unfinished");
      assertThat(r.stderr()).contains("stop requested", "released 1");

      Task task = api.task(id).orElseThrow();
      assertThat(task.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
      assertThat(task.nextRun()).isBefore(Instant.now());
      assertThat(task.retriesLeft()).as("no attempt charged").isEqualTo(2);
      TaskRun run = api.taskRuns(List.of(id), null, 10).get(0);
      assertThat(run.status()).isEqualTo(TaskRunStatus.LOST);
      assertThat(run.metadata().get("released").asBoolean()).isTrue();
      waitFor(() -> !sleeping(sleep), Duration.ofSeconds(10), null);
    } finally {
      daemon.process().destroyForcibly();
    }
  }

  private static long idOf(Drover api, String type) {
    return api.taskSearch(dev.drover.model.TaskQuery.all()).stream()
        .filter(t -> t.type().equals(type))
        .findFirst()
        .orElseThrow()
        .id();
  }

  /** True while a {@code sleep SECONDS} process runs on this machine. */
  private static boolean sleeping(String seconds) {
    return ProcessHandle.allProcesses()
        .anyMatch(
            p ->
                p.info().arguments().map(a -> List.of(a).equals(List.of(seconds))).orElse(false)
                    && p.info().command().map(c -> c.endsWith("sleep")).orElse(false));
  }

  private static void waitFor(
      java.util.function.BooleanSupplier condition, Duration limit, DroverCli.Started process)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(limit);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            "condition not met within "
                + limit
                + (process == null ? "" : "; stderr so far:\n" + process.stderrSoFar()));
      }
      Thread.sleep(100);
    }
  }
}
