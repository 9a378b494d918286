package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drover.Drover;
import dev.drover.model.TaskRunStatus;
import dev.drover.store.StoreLocation;
import dev.drover.testing.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's happy path on the embedded store, run in process (help and version: the real jar). */
class CliFlowIT {
  @TempDir Path tmp;

  private DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = tmp.resolve("data");
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.in(tmp).run(all).ok();
  }

  @Test
  void setsUpAddsSearchesRunsAndArchives() throws Exception {
    assertThat(drover("init").stdout()).contains("created a new store", "no configuration file");
    assertThat(drover("init").stdout()).contains("schema up to date");

    Path config = Fixtures.write(tmp.resolve("drover.yaml"), Fixtures.CONFIG);
    assertThat(drover("config", "apply", config).stdout())
        .contains(
            "worker group vcs: created", "task type load-git: created", "task type check: created");
    assertThat(drover("config", "apply", config).stdout())
        .contains("task type load-git: unchanged", "0 created");

    taskTypes();
    long highId = tasks();
    driveRunsAndArchive(highId);
  }

  private void taskTypes() {
    assertThat(
            drover(
                    "task-type",
                    "add",
                    "--name",
                    "fetch",
                    "--description",
                    "Fetch a page",
                    "--default-interval",
                    "1h",
                    "--min-interval",
                    "10m",
                    "--max-interval",
                    "1d",
                    "--backoff-factor",
                    "2",
                    "--max-queue-length",
                    "50",
                    "--num-retries",
                    "2",
                    "--retry-delay",
                    "5m",
                    "--lease",
                    "2m",
                    "--timeout",
                    "30m",
                    "--max-workers",
                    "3",
                    "--group",
                    "vcs",
                    "--command",
                    "curl",
                    "--command",
                    "-sS",
                    "--command",
                    "{kwargs.url}",
                    "--env",
                    "LANG=C")
                .stdout())
        .contains("created task type fetch");
    assertThat(drover("task-type", "add", "--name", "fetch", "--default-interval", "2h").stdout())
        .contains("kept as first defined");

    JsonNode fetch = drover("task-type", "show", "fetch", "--json").json();
    assertThat(fetch.get("default_interval").asText()).isEqualTo("1h");
    assertThat(fetch.get("min_interval").asText()).isEqualTo("10m");
    assertThat(fetch.get("backoff_factor").asDouble()).isEqualTo(2.0);
    assertThat(fetch.get("group").asText()).isEqualTo("vcs");
    assertThat(fetch.get("command").toString()).isEqualTo("[\"curl\",\"-sS\",\"{kwargs.url}\"]");
    assertThat(fetch.get("env").get("LANG").asText()).isEqualTo("C");
    assertThat(fetch.get("run_history").asText()).as("every run, by default").isEqualTo("all");
    assertThat(drover("task-type", "show", "fetch").stdout()).contains("retry_delay", "5m", "30m");

    JsonNode types = drover("task-type", "list", "--json").json();
    assertThat(types)
        .extracting(t -> t.get("name").asText())
        .containsExactlyInAnyOrder("check", "fetch", "load-git");
    assertThat(drover("task-type", "list").stdout().lines().findFirst().orElseThrow())
        .startsWith("NAME");
  }

  /**
   * Adds tasks one by one and in a batch, searches them, disables and enables; returns the
   * high-priority task's id.
   */
  private long tasks() {
    JsonNode added =
        drover(
                "task",
                "add",
                "--type",
                "load-git",
                "--kwargs",
                "{\"path\": \"/srv/a.git\"}",
                "--priority",
                "high",
                "--json")
            .json();
    assertThat(added).hasSize(1);
    long highId = added.get(0).get("id").asLong();
    assertThat(added.get(0).get("priority").asText()).isEqualTo("high");
    assertThat(added.get(0).get("current_interval").asText()).isEqualTo("1h");

    JsonNode later =
        drover(
                "task",
                "add",
                "--type",
                "check",
                "--policy",
                "oneshot",
                "--args",
                "[\"/srv/a.git\"]",
                "--next-run",
                "2100-01-02",
                "--retries",
                "0",
                "--json")
            .json()
            .get(0);
    assertThat(later.get("next_run").asText()).isEqualTo("2100-01-02T00:00:00Z");
    assertThat(later.get("retries_left").asInt()).isZero();

    Path batch =
        Fixtures.write(
            tmp.resolve("batch.jsonl"),
            """
        {"type": "load-git", "kwargs": {"path": "/srv/b.git"}}
        {"type": "load-git", "kwargs": {"path": "/srv/c.git"}, "priority": "low"}

        {"type": "check", "policy": "oneshot", "args": ["/srv/b.git"], "next_run": "2000-01-01T00:00:00Z"}
        """);
    assertThat(drover("task", "add", "--file", batch).stdout())
        .contains("3 added, 0 already present");
    assertThat(drover("task", "add", "--file", batch).stdout())
        .contains("0 added, 3 already present");

    assertThat(search("--type", "load-git")).hasSize(3);
    assertThat(search("--priority", "high,low")).hasSize(2);
    assertThat(search("--policy", "oneshot")).hasSize(2);
    assertThat(search("--after", "2099-01-01")).hasSize(1);
    assertThat(search("--before", "2000-01-01T00:00:00Z", "--type", "check")).hasSize(1);
    assertThat(search("--id", highId, "--id", later.get("id").asLong())).hasSize(2);
    assertThat(search("--status", "next_run_not_scheduled", "--limit", "2")).hasSize(2);
    assertThat(drover("task", "search", "--type", "load-git").stdout())
        .contains("/srv/a.git", "3 tasks");

    JsonNode due = drover("task", "list", "--json").json();
    assertThat(due).hasSize(4);
    assertThat(drover("task", "list").stdout()).contains("4 tasks due now; 5 tasks in all");
    assertThat(drover("task", "list", "--all", "--json").json()).hasSize(5);

    JsonNode shown = drover("task", "show", highId, "--json").json();
    assertThat(shown.get("task").get("kwargs").get("path").asText()).isEqualTo("/srv/a.git");
    assertThat(shown.get("runs")).isEmpty();
    assertThat(drover("task", "show", highId).stdout()).contains("no runs yet", "load-git");

    assertThat(drover("task", "disable", highId).stdout()).contains("disabled 1 task");
    assertThat(search("--status", "disabled")).hasSize(1);
    assertThat(drover("task", "enable", highId).stdout()).contains("enabled 1 task");
    assertThat(drover("task", "enable", highId).stdout())
        .contains("enabled 0 tasks; 1 left as they were");
    assertThat(search("--status", "disabled")).isEmpty();
    return highId;
  }

  private JsonNode search(Object... filters) {
    Object[] args = new Object[filters.length + 3];
    args[0] = "task";
    args[1] = "search";
    System.arraycopy(filters, 0, args, 2, filters.length);
    args[args.length - 1] = "--json";
    return drover(args).json();
  }

  private void driveRunsAndArchive(long highId) throws Exception {
    StoreLocation store = StoreLocation.dataDir(tmp.resolve("data"));
    try (Drover api = Drover.open(store)) {
      assertThat(Fixtures.runToEnd(api, "check", TaskRunStatus.FAILED)).hasSize(1);
      assertThat(Fixtures.runToEnd(api, "load-git", TaskRunStatus.UNEVENTFUL)).hasSize(3);
    }
    // The failed check is retried after its type's default retry delay (1h); succeed two hours on.
    try (Drover later =
        Drover.open(store, new TestClock(Instant.now().plus(Duration.ofHours(2))))) {
      assertThat(Fixtures.runToEnd(later, "check", TaskRunStatus.EVENTFUL)).hasSize(1);
    }
    JsonNode runs = drover("task-run", "list", "--json").json();
    assertThat(runs).hasSize(5);
    assertThat(drover("task-run", "list", "--status", "eventful", "--json").json()).hasSize(1);
    assertThat(drover("task-run", "list", "--status", "failed", "--json").json()).hasSize(1);
    assertThat(drover("task-run", "list", "--task", highId, "--json").json()).hasSize(1);
    assertThat(drover("task-run", "list").stdout()).contains("uneventful", "BACKEND ID");
    JsonNode shown = drover("task", "show", highId, "--json").json();
    assertThat(shown.get("runs")).hasSize(1);
    assertThat(shown.get("task").get("current_interval").asText()).isEqualTo("2h");

    JsonNode status = drover("status", "--json").json();
    JsonNode check =
        status.findParents("type").stream()
            .filter(s -> s.get("type").asText().equals("check"))
            .findFirst()
            .orElseThrow();
    assertThat(check.get("completed").asLong()).isEqualTo(1);
    assertThat(check.get("total").asLong()).isEqualTo(2);
    assertThat(drover("status").stdout()).contains("DUE", "DONE", "(all types)", "fetch");

    assertThat(drover("archive", "--after", "2000-01-01", "--before", "2100-01-01").stdout())
        .contains("2 archivable runs");
    Path export = tmp.resolve("archive.jsonl");
    // One run per page: the task is deleted only with its last run, on the second page.
    assertThat(
            drover(
                    "archive",
                    "--after",
                    "2000-01-01",
                    "--before",
                    "2100-01-01",
                    "--export",
                    export,
                    "--delete",
                    "--page-size",
                    "1")
                .stdout())
        .contains("exported 2 runs", "deleted 2 runs and 1 tasks");
    List<String> lines = Files.readAllLines(export);
    assertThat(lines).hasSize(2);
    ObjectMapper json = new ObjectMapper();
    JsonNode failed = json.readTree(lines.get(0));
    JsonNode archived = json.readTree(lines.get(1));
    assertThat(failed.get("status").asText()).isEqualTo("failed");
    assertThat(archived.get("type").asText()).isEqualTo("check");
    assertThat(archived.get("status").asText()).isEqualTo("eventful");
    assertThat(archived.get("task_status").asText()).isEqualTo("completed");
    assertThat(archived.get("task_id").asLong()).isEqualTo(failed.get("task_id").asLong());
    assertThat(search("--id", archived.get("task_id").asLong())).isEmpty();
    assertThat(drover("task-run", "list", "--json").json()).hasSize(3);
    assertThat(drover("archive", "--after", "2000-01-01", "--before", "2100-01-01").stdout())
        .contains("0 archivable runs");
  }

  /** A type with neither a default interval nor a cron takes oneshot tasks: the default then. */
  @Test
  void aTaskOfATypeThatCannotRecurIsOneshotUnlessToldOtherwise() {
    drover("init");
    drover("task-type", "add", "--name", "once", "--command", "true");
    JsonNode added = drover("task", "add", "--type", "once", "--json").json().get(0);
    assertThat(added.get("policy").asText()).isEqualTo("oneshot");
    Path batch = Fixtures.write(tmp.resolve("once.jsonl"), "{\"type\": \"once\", \"args\": [1]}\n");
    drover("task", "add", "--file", batch);
    assertThat(drover("task", "search", "--policy", "oneshot", "--json").json()).hasSize(2);
  }

  @Test
  void helpAndVersion() {
    // The version comes from the jar's manifest, so these two run the real jar.
    DroverCli jar = DroverCli.jar(tmp);
    assertThat(jar.run("--version").ok().stdout()).startsWith("drover 0.1");
    assertThat(jar.run("--help").ok().stdout())
        .contains("task-type", "archive", "run", "--data-dir", "--db");
    DroverCli cli = DroverCli.in(tmp);
    for (List<String> command :
        List.of(
            List.of("task", "add"),
            List.of("task-type", "add"),
            List.of("archive"),
            List.of("task", "search"),
            List.of("task-run", "list"),
            List.of("config", "apply"),
            List.of("demo"),
            List.of("run"))) {
      assertThat(cli.run(withHelp(command)).ok().stdout())
          .startsWith("Usage: drover " + String.join(" ", command));
    }
  }

  private static Object[] withHelp(List<String> command) {
    Object[] args = new Object[command.size() + 1];
    for (int i = 0; i < command.size(); i++) {
      args[i] = command.get(i);
    }
    args[command.size()] = "--help";
    return args;
  }
}
