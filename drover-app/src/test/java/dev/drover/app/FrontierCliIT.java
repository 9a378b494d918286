package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crawl frontier's commands through the real jar: listers, origins from JSON Lines and CSV,
 * grabs, ingested results and metrics, and a stale lister update refused. On every database
 * (subclasses).
 */
abstract class FrontierCliIT {
  @TempDir Path tmp;

  /** Options naming the database, put before the command. */
  abstract List<Object> dbOptions();

  abstract StoreLocation location();

  DroverCli.Result drover(Object... command) {
    List<Object> all = new ArrayList<>(List.of("--data-dir", tmp.resolve("data")));
    all.addAll(dbOptions());
    all.addAll(List.of(command));
    return DroverCli.in(tmp).run(all.toArray());
  }

  /** Issue 14 item 8: the version a table prints is the one lister update expects. */
  @Test
  void theUpdatedThatTablesPrintIsTheVersionToPassBack() {
    drover("init").ok();
    drover("lister", "add", "github").ok();
    String fromList =
        drover("lister", "list").ok().stdout().lines().skip(1).findFirst().orElseThrow();
    String listed = fromList.trim().split("\\s+")[3];
    drover("lister", "update", "github", "--expect-updated", listed, "--state", "{\"a\": 1}").ok();
    String shown =
        drover("lister", "show", "github")
            .ok()
            .stdout()
            .lines()
            .filter(l -> l.startsWith("updated "))
            .findFirst()
            .orElseThrow()
            .substring("updated".length())
            .trim();
    drover("lister", "update", "github", "--expect-updated", shown, "--state", "{\"a\": 2}").ok();
  }

  @Test
  void listersOriginsGrabsResultsAndMetrics() {
    drover("init").ok();
    JsonNode github = drover("lister", "add", "github", "--json").ok().json();
    assertThat(github.get("instance_name").asText()).isEmpty();
    drover("lister", "add", "gitlab", "--instance", "gitlab.com").ok();
    assertThat(drover("lister", "list", "--json").ok().json())
        .extracting(l -> l.get("name").asText())
        .containsExactly("github", "gitlab");
    assertThat(drover("lister", "list").ok().stdout()).contains("github", "gitlab.com");

    // The lister's state, updated with the version read; the old version is then stale.
    String version = github.get("updated").asText();
    JsonNode updated =
        drover(
                "lister",
                "update",
                "github",
                "--expect-updated",
                version,
                "--state",
                "{\"page\": 7}",
                "--json")
            .ok()
            .json();
    assertThat(updated.get("current_state").get("page").asInt()).isEqualTo(7);
    DroverCli.Result stale =
        drover("lister", "update", "github", "--expect-updated", version, "--state", "{}");
    assertThat(stale.exitCode()).as(stale.toString()).isEqualTo(2);
    assertThat(stale.stderrLines())
        .singleElement()
        .asString()
        .contains("--expect-updated", "stale data");
    assertThat(
            drover("lister", "show", "github", "--json")
                .ok()
                .json()
                .get("current_state")
                .get("page")
                .asInt())
        .isEqualTo(7);

    Path jsonl =
        Fixtures.write(
            tmp.resolve("origins.jsonl"),
            """
        {"url": "https://github.com/a", "visit_type": "git", "last_update": "2026-01-01T00:00:00Z"}
        {"url": "https://github.com/b", "visit_type": "git", "extra_loader_arguments": {"depth": 1}}

        {"url": "https://github.com/c", "visit_type": "git", "enabled": false}
        """);
    assertThat(drover("origin", "record", jsonl, "--lister", "github").ok().stdout())
        .contains("3 origins recorded");
    // as a spreadsheet saves it: a byte-order mark, CRLF, a quoted cell spanning two lines
    Path csv =
        Fixtures.write(
            tmp.resolve("origins.csv"),
            "\uFEFFlister,instance,url,visit_type,last_update,extra_loader_arguments\r\n"
                + "gitlab,gitlab.com,https://gitlab.com/x,git,2026-02-01,\"{\"\"branch\"\":\r\n"
                + " \"\"main\"\"}\"\r\n"
                + "gitlab,gitlab.com,https://gitlab.com/y,hg,,\r\n");
    JsonNode recorded = drover("origin", "record", csv, "--json").ok().json();
    assertThat(recorded)
        .extracting(o -> o.get("url").asText())
        .containsExactly("https://gitlab.com/x", "https://gitlab.com/y");
    assertThat(recorded.get(0).get("extra_loader_arguments").get("branch").asText())
        .isEqualTo("main");

    DroverCli.Result first =
        drover("origin", "list", "--enabled", "all", "--limit", "2", "--json").ok();
    assertThat(first.json()).hasSize(2);
    // The page token is a hint for people: on stderr, so that stdout stays one JSON array.
    assertThat(first.stderrLines()).singleElement().asString().startsWith("more: --page ");
    String token = first.stderrLines().get(0).substring("more: --page ".length());
    JsonNode rest =
        drover("origin", "list", "--enabled", "all", "--page", token, "--json").ok().json();
    assertThat(rest).hasSize(3);
    assertThat(drover("origin", "list", "--lister", "github", "--json").ok().json())
        .extracting(o -> o.get("url").asText())
        .containsExactly("https://github.com/a", "https://github.com/b");

    JsonNode dry =
        drover(
                "visit",
                "grab",
                "--visit-type",
                "git",
                "--count",
                "10",
                "--policy",
                "oldest_scheduled_first",
                "--dry-run",
                "--json")
            .ok()
            .json();
    assertThat(dry).hasSize(3);
    // The plan, and nothing recorded: the grab below still gets both origins.
    JsonNode plan =
        drover(
                "visit",
                "grab",
                "--visit-type",
                "git",
                "--count",
                "10",
                "--policy",
                "never_visited_oldest_update_first",
                "--explain",
                "--json")
            .ok()
            .json();
    assertThat(plan).isNotEmpty();
    assertThat(plan.toString()).contains("listed_origin");
    JsonNode grabbed =
        drover(
                "visit",
                "grab",
                "--visit-type",
                "git",
                "--count",
                "10",
                "--policy",
                "never_visited_oldest_update_first",
                "--json")
            .ok()
            .json();
    assertThat(grabbed)
        .extracting(o -> o.get("url").asText())
        .containsExactly("https://github.com/a", "https://gitlab.com/x");
    assertThat(
            drover(
                    "visit",
                    "grab",
                    "--visit-type",
                    "git",
                    "--count",
                    "10",
                    "--policy",
                    "never_visited_oldest_update_first",
                    "--json")
                .ok()
                .json())
        .as("cooling down")
        .isEmpty();
    assertThat(
            drover("origin", "show", "https://github.com/a", "--json")
                .ok()
                .json()
                .get("visit_stats")
                .get(0)
                .get("last_scheduled")
                .isNull())
        .isFalse();

    Path results =
        Fixtures.write(
            tmp.resolve("results.jsonl"),
            """
        {"url": "https://github.com/a", "visit_type": "git", "date": "2026-03-01T00:00:00Z", "status": "full", "snapshot": "s1"}
        {"url": "https://github.com/a", "visit_type": "git", "date": "2026-02-01T00:00:00Z", "status": "full", "snapshot": "s0"}
        {"url": "https://gitlab.com/x", "visit_type": "git", "date": "2026-03-01T00:00:00Z", "status": "not_found"}
        """);
    JsonNode report = drover("visit", "ingest", results, "--json").ok().json();
    assertThat(report.get("applied").asInt()).isEqualTo(2);
    assertThat(report.get("ignored").asInt()).as("older than the last visit").isEqualTo(1);
    JsonNode stats =
        drover("origin", "show", "https://github.com/a", "--json")
            .ok()
            .json()
            .get("visit_stats")
            .get(0);
    assertThat(stats.get("last_snapshot").asText()).isEqualTo("s1");
    assertThat(stats.get("last_visit_status").asText()).isEqualTo("successful");
    assertThat(stats.get("next_position_offset").asInt()).isEqualTo(4);
    assertThat(stats.get("next_visit_queue_position").asLong()).isPositive();
    assertThat(drover("origin", "show", "https://github.com/a").ok().stdout())
        .contains("successful", "s1");

    JsonNode metrics = drover("metrics", "update", "--json").ok().json();
    assertThat(metrics).hasSize(3);
    JsonNode githubGit =
        drover("metrics", "show", "--lister", "github", "--visit-type", "git", "--json")
            .ok()
            .json()
            .get(0);
    assertThat(githubGit.get("origins_known").asInt()).isEqualTo(3);
    assertThat(githubGit.get("origins_enabled").asInt()).isEqualTo(2);
    assertThat(githubGit.get("origins_never_visited").asInt())
        .as("b: a has a snapshot now")
        .isEqualTo(1);
    assertThat(drover("metrics", "show").ok().stdout())
        .contains("github", "gitlab/gitlab.com", "KNOWN");

    // --skip-invalid records the valid lines and names the others on stderr.
    DroverCli.Result skipped =
        drover(
                "origin",
                "record",
                "--lister",
                "github",
                "--skip-invalid",
                Fixtures.write(
                    tmp.resolve("skip.jsonl"),
                    """
            {"url": "https://github.com/d", "visit_type": "git"}
            {"visit_type": "git"}
            """))
            .ok();
    assertThat(skipped.stdout()).contains("1 origins recorded, 1 invalid lines skipped");
    assertThat(skipped.stderrLines()).singleElement().asString().contains("skip.jsonl:2", "url");

    // Bad input on this database: refused in one line, nothing written.
    for (Object[] bad :
        List.<Object[]>of(
            new Object[] {
              "visit", "grab", "--visit-type", "git", "--count", "1", "--policy", "newest_first"
            },
            new Object[] {
              "origin",
              "record",
              Fixtures.write(
                  tmp.resolve("bad.jsonl"),
                  "{\"url\": \"https://github.com/new\", \"visit_type\": \"git\", \"lister\": \"nobody\"}\n")
            },
            new Object[] {"lister", "update", "github", "--expect-updated", version})) {
      DroverCli.Result r = drover(bad);
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
      assertThat(r.stderrLines()).as(r.toString()).hasSize(1);
    }
    assertThat(drover("origin", "list", "--enabled", "all", "--limit", "100", "--json").ok().json())
        .hasSize(6);
  }

  /**
   * A file of several batches is read whole before its first batch is recorded: a bad line at its
   * end, even one only the database would refuse, records nothing.
   */
  @Test
  void aFileOfSeveralBatchesWithOneBadLineAtItsEndRecordsNothing() {
    drover("init").ok();
    drover("lister", "add", "github").ok();
    for (String bad :
        List.of(
            "{\"url\": \"https://github.com/last\", \"visit_type\": \"git\", \"lister\": \"nobody\"}",
            "{\"url\": \"https://github.com/last\"}",
            "{\"url\": \"https://github.com/\\u0000\", \"visit_type\": \"git\"}")) {
      Path file = origins(2_500, bad);
      DroverCli.Result r = drover("origin", "record", file, "--lister", "github");
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
      assertThat(r.stderrLines())
          .as(r.toString())
          .singleElement()
          .asString()
          .contains(file + ":2500: ", "nothing recorded");
      assertThat(drover("origin", "list", "--enabled", "all", "--limit", "1", "--json").ok().json())
          .as(bad)
          .isEmpty();
    }
  }

  /**
   * Origins are recorded a batch at a time, so a file of any length fits a small heap: 50,000
   * origins in 24 MB (recorded whole, the file's origins took more than 32 MB).
   */
  @Test
  void aFileLargerThanTheHeapIsRecordedABatchAtATime() {
    drover("init").ok();
    drover("lister", "add", "github").ok();
    List<Object> command = new ArrayList<>(List.of("--data-dir", tmp.resolve("data")));
    command.addAll(dbOptions());
    command.addAll(List.of("origin", "record", origins(50_000, null), "--lister", "github"));

    DroverCli.Result r = DroverCli.jar(tmp).jvmOption("-Xmx24m").run(command.toArray()).ok();

    assertThat(r.stdout()).isEqualTo("50000 origins recorded\n");
    drover("metrics", "update").ok();
    assertThat(
            drover("metrics", "show", "--lister", "github", "--visit-type", "git", "--json")
                .ok()
                .json()
                .get(0)
                .get("origins_known")
                .asInt())
        .isEqualTo(50_000);
  }

  /**
   * Visit results are applied 1,000 a transaction, in the file's order, so results for one origin
   * in different batches build on each other as they would in one; a bad line at the end of the
   * file ingests nothing.
   */
  @Test
  void visitResultsOfSeveralBatchesBuildOnEachOtherAndABadLastLineIngestsNothing() {
    drover("init").ok();
    drover("lister", "add", "github").ok();
    drover(
            "origin",
            "record",
            origins(1, "{\"url\": \"https://github.com/a\", \"visit_type\": \"git\"}"),
            "--lister",
            "github")
        .ok();
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 2_500; i++) {
      String url = i == 1 || i == 1_500 || i == 2_400 ? "https://github.com/a" : "https://x/" + i;
      // a's third result (line 2,400) is older than its second: ignored, as its second is stored
      String date =
          i == 1_500
              ? "2026-03-01T00:00:00Z"
              : i == 2_400 ? "2026-02-15T00:00:00Z" : "2026-02-01T00:00:00Z";
      text.append("{\"url\": \"")
          .append(url)
          .append("\", \"visit_type\": \"git\", \"date\": \"")
          .append(date)
          .append("\", \"status\": \"full\", \"snapshot\": \"s")
          .append(i)
          .append("\"}\n");
    }
    Path bad =
        Fixtures.write(tmp.resolve("bad-results.jsonl"), text + "{\"url\": \"https://y\"}\n");
    DroverCli.Result refused = drover("visit", "ingest", bad);
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(2);
    assertThat(refused.stderrLines()).singleElement().asString().contains("bad-results.jsonl:2501");
    assertThat(
            drover("origin", "show", "https://github.com/a", "--json")
                .ok()
                .json()
                .get("visit_stats"))
        .as("nothing ingested, not even the first batch, which holds a's first result")
        .isEmpty();

    Path good = Fixtures.write(tmp.resolve("results.jsonl"), text.toString());
    JsonNode report = drover("visit", "ingest", good, "--json").ok().json();
    assertThat(report.get("applied").asInt()).isEqualTo(2_499);
    assertThat(report.get("ignored").asInt()).isEqualTo(1);
    JsonNode a =
        drover("origin", "show", "https://github.com/a", "--json")
            .ok()
            .json()
            .get("visit_stats")
            .get(0);
    assertThat(a.get("last_snapshot").asText()).isEqualTo("s1500");
    assertThat(a.get("last_visit").asText()).startsWith("2026-03-01T00:00");
  }

  /** A file of {@code lines} origins of github; the last one is {@code last} when it is given. */
  private Path origins(int lines, String last) {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= lines; i++) {
      text.append(
              i == lines && last != null
                  ? last
                  : "{\"url\": \"https://github.com/o" + i + "\", \"visit_type\": \"git\"}")
          .append('\n');
    }
    return Fixtures.write(tmp.resolve("origins-" + lines + ".jsonl"), text.toString());
  }
}
