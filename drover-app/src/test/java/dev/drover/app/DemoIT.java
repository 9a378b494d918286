package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover demo}, the README's first command, through the real jar: twice on one fresh data
 * directory.
 */
class DemoIT {
  @TempDir Path tmp;

  @Test
  void mirrorsChecksumsAndAdaptsTheIntervalsEachTime() {
    Path data = tmp.resolve("data");
    // The first run reads examples/ in the repository; the second, from elsewhere, the copies in
    // the jar.
    Path repoRoot = Path.of("").toAbsolutePath().getParent();

    DroverCli.Result first = DroverCli.jar(repoRoot).run("--data-dir", data, "demo").ok();
    assertThat(first.stdout())
        .contains(
            "created a store",
            "created with git init",
            "cloned with git clone --mirror",
            "6 added, 0 already present",
            "eventful",
            "uneventful",
            "SHA-256",
            "1h -> 30m",
            "1h -> 2h",
            "(all types)");
    assertThat(first.stderrLines()).allSatisfy(line -> assertThat(line).contains(" INFO "));

    DroverCli.Result second = DroverCli.jar(tmp).run("--data-dir", data, "demo").ok();
    assertThat(second.stdout())
        .contains(
            "using the store",
            "already there",
            "task type mirror-git: unchanged",
            "0 added, 6 already present",
            "30m -> 15m",
            "2h -> 4h");

    DroverCli cli = DroverCli.in(tmp);
    Map<String, JsonNode> tasks =
        byKey(
            cli.run("--data-dir", data, "task", "list", "--all", "--json").ok().json(),
            t ->
                t.get("type").asText()
                    + " "
                    + Path.of(
                            t.get("type").asText().equals("checksum")
                                ? t.get("args").get(0).asText()
                                : t.get("kwargs").get("path").asText())
                        .getFileName());
    assertThat(tasks).hasSize(6);
    assertThat(tasks.get("mirror-git alpha.git").get("current_interval").asText()).isEqualTo("15m");
    assertThat(tasks.get("mirror-git beta.git").get("current_interval").asText()).isEqualTo("4h");
    assertThat(tasks.get("mirror-git gamma.git").get("current_interval").asText()).isEqualTo("4h");
    assertThat(tasks.get("checksum alpha.git").get("status").asText()).isEqualTo("completed");

    JsonNode runs = cli.run("--data-dir", data, "task-run", "list", "--json").ok().json();
    assertThat(runs).hasSize(12);
    Map<String, Long> statuses =
        StreamSupport.stream(runs.spliterator(), false)
            .collect(Collectors.groupingBy(r -> r.get("status").asText(), Collectors.counting()));
    // Per demo: alpha's fetch and the three checksums are eventful, beta's and gamma's fetches are
    // not.
    assertThat(statuses)
        .containsExactlyInAnyOrderEntriesOf(Map.of("eventful", 8L, "uneventful", 4L));
    List<JsonNode> sums =
        StreamSupport.stream(runs.spliterator(), false)
            .filter(r -> r.get("metadata").path("result").has("sha256"))
            .toList();
    assertThat(sums)
        .hasSize(6)
        .allSatisfy(
            r -> {
              assertThat(r.get("metadata").get("result").get("sha256").asText())
                  .matches("[0-9a-f]{64}");
              assertThat(r.get("metadata").get("result").get("files").asInt()).isPositive();
            });
  }

  @Test
  void theEventLogShowsEachRunnerOfTheDemo() {
    Path data = tmp.resolve("data");
    Path repoRoot = Path.of("").toAbsolutePath().getParent();
    DroverCli.jar(repoRoot).run("--data-dir", data, "demo").ok();

    DroverCli.Result events = DroverCli.in(tmp).run("--data-dir", data, "events", "--json").ok();
    List<String> kinds =
        StreamSupport.stream(events.json().spliterator(), false)
            .map(event -> event.get("kind").asText())
            .toList();
    // The demo runs two runners one after the other: fetches first, then checksums. Each leads
    // (nobody else is there) and starts worker threads as its work needs them.
    assertThat(kinds.stream().filter(k -> k.startsWith("runner_")))
        .containsExactly("runner_started", "runner_stopped", "runner_started", "runner_stopped");
    assertThat(kinds.stream().filter(k -> k.equals("became_leader"))).hasSize(2);
    assertThat(kinds).contains("worker_spawned");
    int last = kinds.size();
    assertThat(
            DroverCli.in(tmp)
                .run("--data-dir", data, "events", "--after", last - 1)
                .ok()
                .stdout()
                .lines())
        .hasSize(2)
        .satisfies(
            lines -> {
              assertThat(lines.get(0)).startsWith("ID ").contains("AT", "KIND", "RUNNER");
              assertThat(lines.get(1)).startsWith(last + " ").contains("runner_stopped");
            });
  }

  private static Map<String, JsonNode> byKey(JsonNode array, Function<JsonNode, String> key) {
    return StreamSupport.stream(array.spliterator(), false).collect(Collectors.toMap(key, t -> t));
  }
}
