package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.testing.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI on PostgreSQL ({@code --db} and {@code DROVER_DB}): embedded, or DROVER_TEST_PG_URL. */
class PostgresCliIT {
  @TempDir Path tmp;

  @Test
  void worksOnPostgresAndRefusesBadInputWithoutChangingIt() {
    String url = TestPostgres.freshUrl();
    DroverCli cli = DroverCli.in(tmp);
    assertThat(cli.run("--db", url, "init").ok().stdout())
        .contains("store at", "no configuration file");
    Path config = Fixtures.write(tmp.resolve("drover.yaml"), Fixtures.CONFIG);
    assertThat(cli.run("--db", url, "config", "apply", config).ok().stdout())
        .contains("task type load-git: created");
    assertThat(
            cli.run("--db", url, "task-type", "add", "--name", "fetch", "--default-interval", "1h")
                .ok()
                .stdout())
        .contains("created task type fetch");
    JsonNode added =
        cli.run(
                "--db",
                url,
                "task",
                "add",
                "--type",
                "load-git",
                "--kwargs",
                "{\"path\": \"/srv/a.git\"}",
                "--priority",
                "high",
                "--json")
            .ok()
            .json();
    long id = added.get(0).get("id").asLong();
    assertThat(
            cli.run(
                    "--db",
                    url,
                    "task",
                    "add",
                    "--type",
                    "check",
                    "--policy",
                    "oneshot",
                    "--args",
                    "[1]")
                .ok()
                .stdout())
        .contains("1 added");

    // DROVER_DB names the same database; no data directory is created.
    DroverCli viaEnv = DroverCli.in(tmp).env("DROVER_DB", url);
    assertThat(viaEnv.run("task", "search", "--type", "load-git", "--json").ok().json())
        .extracting(t -> t.get("id").asLong())
        .containsExactly(id);
    assertThat(viaEnv.run("task", "disable", id).ok().stdout()).contains("disabled 1 task");
    assertThat(
            viaEnv.run("task", "show", id, "--json").ok().json().get("task").get("status").asText())
        .isEqualTo("disabled");
    JsonNode status = viaEnv.run("status", "--json").ok().json();
    assertThat(status)
        .extracting(s -> s.get("type").asText())
        .containsExactly("check", "fetch", "load-git");
    assertThat(viaEnv.run("task-run", "list", "--json").ok().json()).isEmpty();
    assertThat(Files.exists(tmp.resolve("drover-data"))).isFalse();

    List<String> before = DbSnapshot.of(url);
    for (Object[] bad :
        List.of(
            new Object[] {"task", "add", "--type", "load-svn"},
            new Object[] {"task", "add", "--type", "load-git", "--priority", "urgent"},
            new Object[] {
              "task-type", "add", "--name", "t", "--min-interval", "2h", "--max-interval", "1h"
            },
            new Object[] {"task", "enable", "abc"})) {
      DroverCli.Result r = viaEnv.run(bad);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
      assertThat(r.stderrLines()).as(r.toString()).hasSize(1);
    }
    assertThat(DbSnapshot.of(url)).isEqualTo(before);
  }

  @Test
  void runsCommandTasksUntilIdleOnPostgres() throws Exception {
    String url = TestPostgres.freshUrl();
    // The front door on PostgreSQL: the real jar, told where the store is by DROVER_DB.
    DroverCli cli = DroverCli.jar(tmp).env("DROVER_DB", url);
    cli.run("init").ok();
    cli.run(
            "task-type",
            "add",
            "--name",
            "hello",
            "--default-interval",
            "1h",
            "--command",
            "sh",
            "--command",
            "-c",
            "--command",
            "echo hi from {args.0}")
        .ok();
    cli.run("task", "add", "--type", "hello", "--args", "[\"pg\"]").ok();
    JsonNode summary = cli.run("run", "--json").ok().json();
    assertThat(summary.get("claimed").asInt()).isEqualTo(1);
    assertThat(summary.get("eventful").asInt()).isEqualTo(1);
    JsonNode run = cli.run("task-run", "list", "--json").ok().json().get(0);
    // Without a data directory, run output goes under the working directory.
    Path stdout =
        tmp.resolve("drover-runs/hello")
            .resolve(run.get("backend_id").asText())
            .resolve("stdout.log");
    assertThat(Files.readString(stdout)).isEqualTo("hi from pg\n");
    assertThat(cli.run("task", "list", "--json").ok().json()).as("due now").isEmpty();
  }
}
