package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, items 4 and 9 through the CLI in process: why a run failed shows in the text output of
 * {@code task show} and {@code task-run list}, and {@code archive} neither creates an export file
 * for nothing nor leaves run directories behind.
 */
class FailedRunsAndArchiveIT {
  @TempDir Path tmp;

  private DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = tmp.resolve("data");
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.in(tmp).run(all).ok();
  }

  /** A one-shot task whose command fails, run once by {@code drover run}; returns its task id. */
  private long failOnce() {
    drover("init");
    drover(
        "task-type",
        "add",
        "--name",
        "boom",
        "--command",
        "sh",
        "--command",
        "-c",
        "--command",
        "echo the disk is on fire >&2; exit 3");
    long id =
        drover("task", "add", "--type", "boom", "--policy", "oneshot", "--json")
            .json()
            .findValue("id")
            .asLong();
    drover("run");
    return id;
  }

  @Test
  void aFailedRunShowsItsErrorAndLogDirectory() {
    long id = failOnce();
    JsonNode run = drover("task-run", "list", "--json").json().get(0);
    assertThat(run.get("status").asText()).isEqualTo("failed");
    Path logDir = tmp.resolve("data/runs/boom").resolve(run.get("backend_id").asText());
    assertThat(logDir).isDirectory();

    String list = drover("task-run", "list").stdout();
    assertThat(list).contains("ERROR", "LOG DIR", "exit code 3: the disk is on fire");
    assertThat(list).contains(logDir.toAbsolutePath().normalize().toString());

    String show = drover("task", "show", id).stdout();
    assertThat(show).contains("exit code 3: the disk is on fire");
    assertThat(show).contains(logDir.toAbsolutePath().normalize().toString());
  }

  /**
   * A type that keeps only failures, through the CLI with real commands: the success leaves no run
   * and no run directory, the failure keeps both, and {@code task show} says why a task that ran
   * has no runs.
   */
  @Test
  void aTypeThatKeepsOnlyFailuresShowsItsFailuresAlone() throws Exception {
    drover("init");
    drover(
        "task-type",
        "add",
        "--name",
        "light",
        "--run-history",
        "failures",
        "--command",
        "sh",
        "--command",
        "-c",
        "--command",
        "echo working; exit {args.0}");
    long ok = addLight(0);
    long failing = addLight(4);
    drover("run");

    JsonNode runs = drover("task-run", "list", "--json").json();
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).get("status").asText()).isEqualTo("failed");
    assertThat(runs.get(0).get("task_id").asLong()).isEqualTo(failing);
    try (var dirs = Files.list(tmp.resolve("data/runs/light"))) {
      assertThat(dirs.map(d -> d.getFileName().toString()))
          .containsExactly(runs.get(0).get("backend_id").asText());
    }
    assertThat(drover("task", "show", ok).stdout())
        .contains("done", "no failed runs (task type light keeps only the runs that did not");
    assertThat(drover("task", "show", failing).stdout()).contains("exit code 4");
    assertThat(drover("task-type", "show", "light").stdout()).contains("run_history", "failures");
  }

  private long addLight(int exitCode) {
    return drover(
            "task",
            "add",
            "--type",
            "light",
            "--policy",
            "oneshot",
            "--args",
            "[" + exitCode + "]",
            "--json")
        .json()
        .findValue("id")
        .asLong();
  }

  @Test
  void anExportThatMatchesNothingCreatesNoFile() {
    drover("init");
    Path export = tmp.resolve("nothing.jsonl");
    String out =
        drover("archive", "--after", "2000-01-01", "--before", "2001-01-01", "--export", export)
            .stdout();
    assertThat(out).contains("no archivable runs", "not created");
    assertThat(export).doesNotExist();
    // ...so the next export to the same name is not refused.
    drover("archive", "--after", "2000-01-01", "--before", "2001-01-01", "--export", export);
  }

  @Test
  void deleteAlsoRemovesTheRunDirectories() throws Exception {
    failOnce(); // a one-shot task that failed with no retries left is disabled: archivable
    JsonNode run = drover("task-run", "list", "--json").json().get(0);
    Path logDir = tmp.resolve("data/runs/boom").resolve(run.get("backend_id").asText());
    assertThat(logDir).isDirectory();
    Path export = tmp.resolve("runs.jsonl");

    String out =
        drover(
                "archive",
                "--after",
                "2000-01-01",
                "--before",
                "2100-01-01",
                "--export",
                export,
                "--delete")
            .stdout();

    assertThat(out).contains("exported 1 runs", "deleted 1 runs and 1 tasks", "1 run directories");
    List<String> lines = Files.readAllLines(export);
    assertThat(lines).hasSize(1);
    assertThat(logDir).doesNotExist();
    assertThat(tmp.resolve("data/runs/boom")).doesNotExist();
  }

  /**
   * The archival rule of swh-scheduler, kept: a recurring task counts as finished once disabled, so
   * archive --delete removes it with its runs. The rule is stated where users look for it.
   */
  @Test
  void aDisabledRecurringTaskIsArchivedAsInTheReferenceAndTheHelpSaysSo() {
    drover("init");
    drover("task-type", "add", "--name", "tick", "--default-interval", "1h", "--command", "true");
    long id = drover("task", "add", "--type", "tick", "--json").json().findValue("id").asLong();
    drover("run");
    drover("task", "disable", id);
    String out =
        drover(
                "archive",
                "--after",
                "2000-01-01",
                "--before",
                "2100-01-01",
                "--export",
                tmp.resolve("tick.jsonl"),
                "--delete")
            .stdout();
    assertThat(out).contains("exported 1 runs", "deleted 1 runs and 1 tasks");
    assertThat(drover("task", "search", "--id", id, "--json").json()).isEmpty();

    String help = drover("archive", "--help").stdout().replaceAll("\\s+", " ");
    assertThat(help)
        .contains("a recurring task counts as finished once it is disabled")
        .contains("no file when nothing matches")
        .contains("output directories on disk");
  }
}
