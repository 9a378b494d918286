package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-key limits through the CLI: declared by option or configuration file, shown, and required of
 * tasks.
 */
class PerKeyCliIT {
  @TempDir Path tmp;

  @Test
  void aPerKeyLimitIsDeclaredShownAndRequiredOfTasks() {
    DroverCli cli = DroverCli.in(tmp);
    cli.run("init").ok();
    cli.run(
            "task-type",
            "add",
            "--name",
            "build",
            "--command",
            "true",
            "--concurrency-key",
            "owner",
            "--max-per-key",
            "2")
        .ok();
    JsonNode build = cli.run("task-type", "show", "build", "--json").ok().json();
    assertThat(build.get("concurrency_key").asText()).isEqualTo("owner");
    assertThat(build.get("max_per_key").asInt()).isEqualTo(2);
    assertThat(cli.run("task-type", "show", "build").ok().stdout())
        .contains("concurrency_key", "max_per_key");
    assertThat(cli.run("task-type", "list").ok().stdout()).contains("PER KEY", "2 per owner");

    Path config =
        Fixtures.write(
            tmp.resolve("drover.yaml"),
            """
        task_types:
          render:
            concurrency_key: site
            max_per_key: 1
        """);
    cli.run("config", "apply", config).ok();
    JsonNode types = cli.run("task-type", "list", "--json").ok().json();
    assertThat(types)
        .anySatisfy(
            t -> {
              assertThat(t.get("name").asText()).isEqualTo("render");
              assertThat(t.get("concurrency_key").asText()).isEqualTo("site");
              assertThat(t.get("max_per_key").asInt()).isEqualTo(1);
            });

    assertThat(
            cli.run(
                    "task",
                    "add",
                    "--type",
                    "build",
                    "--policy",
                    "oneshot",
                    "--kwargs",
                    "{\"owner\": \"alice\"}")
                .ok()
                .stdout())
        .contains("1 added");
  }
}
