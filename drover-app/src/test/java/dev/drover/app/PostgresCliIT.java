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
  @TempDir
  Path tmp;

  @Test
  void worksOnPostgresAndRefusesBadInputWithoutChangingIt() {
    String url = TestPostgres.freshUrl();
    DroverCli cli = DroverCli.in(tmp);
    assertThat(cli.run("--db", url, "init").ok().stdout()).contains("store at", "no configuration file");
    Path config = Fixtures.write(tmp.resolve("drover.yaml"), Fixtures.CONFIG);
    assertThat(cli.run("--db", url, "config", "apply", config).ok().stdout()).contains("task type load-git: created");
    assertThat(cli.run("--db", url, "task-type", "add", "--name", "fetch", "--default-interval", "1h").ok().stdout())
        .contains("created task type fetch");
    JsonNode added = cli.run("--db", url, "task", "add", "--type", "load-git", "--kwargs", "{\"path\": \"/srv/a.git\"}",
        "--priority", "high", "--json").ok().json();
    long id = added.get(0).get("id").asLong();
    assertThat(cli.run("--db", url, "task", "add", "--type", "check", "--policy", "oneshot", "--args", "[1]")
        .ok().stdout()).contains("1 added");

    // DROVER_DB names the same database; no data directory is created.
    DroverCli viaEnv = DroverCli.in(tmp).env("DROVER_DB", url);
    assertThat(viaEnv.run("task", "search", "--type", "load-git", "--json").ok().json())
        .extracting(t -> t.get("id").asLong()).containsExactly(id);
    assertThat(viaEnv.run("task", "disable", id).ok().stdout()).contains("disabled 1 task");
    assertThat(viaEnv.run("task", "show", id, "--json").ok().json().get("task").get("status").asText())
        .isEqualTo("disabled");
    JsonNode status = viaEnv.run("status", "--json").ok().json();
    assertThat(status).extracting(s -> s.get("type").asText()).containsExactly("check", "fetch", "load-git");
    assertThat(viaEnv.run("task-run", "list", "--json").ok().json()).isEmpty();
    assertThat(Files.exists(tmp.resolve("drover-data"))).isFalse();

    List<String> before = DbSnapshot.of(url);
    for (Object[] bad : List.of(
        new Object[] {"task", "add", "--type", "load-svn"},
        new Object[] {"task", "add", "--type", "load-git", "--priority", "urgent"},
        new Object[] {"task-type", "add", "--name", "t", "--min-interval", "2h", "--max-interval", "1h"},
        new Object[] {"task", "enable", "abc"})) {
      DroverCli.Result r = viaEnv.run(bad);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
      assertThat(r.stderrLines()).as(r.toString()).hasSize(1);
    }
    assertThat(DbSnapshot.of(url)).isEqualTo(before);
  }
}
