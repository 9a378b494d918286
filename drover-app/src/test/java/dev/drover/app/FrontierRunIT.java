package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crawl frontier end to end, through the real jar: origins recorded from a file, the leader of
 * {@code drover run} schedules their visits as tasks of a command type {@code load-web}, whose
 * script reports a different outcome per origin; visit stats, queue positions and metrics follow.
 * Two more rounds of visits (added as tasks, since the origins now cool down for 12 hours) move the
 * offsets and disable the origin that is not found three times. On every database (subclasses).
 */
abstract class FrontierRunIT {
  /** Per origin, by the last part of its url: what the loader reports on its n-th visit. */
  private static final String LOADER =
      """
      name=$(basename "$1")
      n=$(( $(cat "$2/$name" 2>/dev/null || echo 0) + 1 ))
      echo $n > "$2/$name"
      case "$name" in
        changing) echo "{\\"status\\": \\"eventful\\", \\"snapshot\\": \\"changing-$n\\"}" ;;
        stable) echo "{\\"status\\": \\"uneventful\\", \\"snapshot\\": \\"stable\\"}" ;;
        broken) echo "{\\"status\\": \\"failed\\", \\"error\\": \\"cannot clone\\"}" ;;
        gone) echo "{\\"status\\": \\"not_found\\"}" ;;
        flip) if [ $((n % 2)) -eq 1 ]; then echo "{\\"status\\": \\"eventful\\"}"; else echo "{\\"status\\": \\"failed\\"}"; fi ;;
      esac
      """;

  private static final List<String> NAMES = List.of("changing", "stable", "broken", "gone", "flip");
  private static final long DAY = 86_400;

  @TempDir Path tmp;

  abstract List<Object> dbOptions();

  abstract StoreLocation location();

  DroverCli.Result drover(Object... command) {
    List<Object> all = new ArrayList<>(List.of("--data-dir", tmp.resolve("data")));
    all.addAll(dbOptions());
    all.addAll(List.of(command));
    return DroverCli.in(tmp).run(all.toArray()).ok();
  }

  private static String url(String name) {
    return "https://forge.example/" + name;
  }

  private Map<String, OriginVisitStats> stats() {
    try (Drover d = Drover.open(location())) {
      return d
          .frontier()
          .visitStatsGet(NAMES.stream().map(n -> new OriginKey(url(n), "web")).toList())
          .stream()
          .collect(
              Collectors.toMap(
                  s -> s.url().substring(s.url().lastIndexOf('/') + 1),
                  s -> s,
                  (a, b) -> a,
                  LinkedHashMap::new));
    }
  }

  /** One more visit of every origin, as one-shot tasks, run to the end. */
  private void visitAgain() {
    StringBuilder tasks = new StringBuilder();
    NAMES.forEach(
        n ->
            tasks
                .append(
                    "{\"type\": \"load-web\", \"policy\": \"oneshot\", \"kwargs\": {\"url\": \"")
                .append(url(n))
                .append("\"}}\n"));
    drover("task", "add", "--file", Fixtures.write(tmp.resolve("again.jsonl"), tasks.toString()));
    drover("run");
  }

  @Test
  void visitOutcomesMoveVisitStatsQueuePositionsAndMetrics() throws Exception {
    Path state = Files.createDirectories(tmp.resolve("loader-state"));
    Path script = Fixtures.write(tmp.resolve("loader.sh"), LOADER);
    Path config =
        Fixtures.write(
            tmp.resolve("drover.yaml"),
            """
        task_types:
          load-web:
            num_retries: 0
            max_workers: 3
            command: [sh, %s, "{kwargs.url}", %s]
        visit_scheduler:
          visit_types:
            web:
              policies: {oldest_scheduled_first: 1}
        """
                .formatted(script, state));
    drover("init");
    drover("config", "apply", config);
    drover("lister", "add", "forge");
    StringBuilder origins = new StringBuilder();
    NAMES.forEach(
        n ->
            origins.append("{\"url\": \"").append(url(n)).append("\", \"visit_type\": \"web\"}\n"));
    drover(
        "origin",
        "record",
        Fixtures.write(tmp.resolve("origins.jsonl"), origins.toString()),
        "--lister",
        "forge");
    JsonNode before = drover("metrics", "update", "--json").json().get(0);
    assertThat(before.get("origins_known").asInt()).isEqualTo(5);
    assertThat(before.get("origins_never_visited").asInt()).isEqualTo(5);

    // Round 1: the runner's leader schedules every origin, and runs the visits.
    JsonNode run = drover("run", "--json").json();
    assertThat(run.get("claimed").asInt()).isEqualTo(5);
    Map<String, OriginVisitStats> first = stats();
    assertThat(first).containsOnlyKeys(NAMES);
    assertThat(first.values())
        .allSatisfy(
            s -> {
              assertThat(s.lastScheduled()).isNotNull().isBefore(s.lastVisit());
              assertThat(s.nextPositionOffset()).as("a first visit keeps the offset").isEqualTo(4);
              assertThat(s.nextVisitQueuePosition())
                  .as("days(4) = 2 days ±10 %")
                  .isBetween(2 * DAY * 9 / 10, 2 * DAY * 11 / 10);
              assertThat(s.successiveVisits()).isEqualTo(1);
            });
    assertThat(first.get("changing").lastSnapshot()).isEqualTo("changing-1");
    assertThat(first.get("stable").lastVisitStatus()).isEqualTo(LastVisitStatus.SUCCESSFUL);
    assertThat(first.get("broken").lastVisitStatus()).isEqualTo(LastVisitStatus.FAILED);
    assertThat(first.get("gone").lastVisitStatus()).isEqualTo(LastVisitStatus.NOT_FOUND);
    assertThat(first.get("flip").lastSnapshot())
        .as("eventful without a snapshot")
        .startsWith("run:");
    JsonNode afterOne = drover("metrics", "update", "--json").json().get(0);
    assertThat(afterOne.get("origins_never_visited").asInt()).as("broken and gone").isEqualTo(2);
    assertThat(afterOne.get("origins_enabled").asInt()).isEqualTo(5);

    // Round 2: eventful -2, anything else +1; the queue position moves on from its own.
    visitAgain();
    Map<String, OriginVisitStats> second = stats();
    assertThat(second.get("changing").nextPositionOffset()).isEqualTo(2);
    assertThat(second.get("changing").lastSnapshot()).isEqualTo("changing-2");
    assertThat(second.get("stable").nextPositionOffset()).isEqualTo(5);
    assertThat(second.get("stable").successiveVisits()).isEqualTo(2);
    assertThat(second.get("broken").nextPositionOffset()).isEqualTo(5);
    assertThat(second.get("flip").lastVisitStatus()).isEqualTo(LastVisitStatus.FAILED);
    assertThat(second.get("flip").lastSnapshot()).isEqualTo(first.get("flip").lastSnapshot());
    assertThat(
            second.get("changing").nextVisitQueuePosition()
                - first.get("changing").nextVisitQueuePosition())
        .as("days(2) = 2 days further")
        .isBetween(2 * DAY * 9 / 10, 2 * DAY * 11 / 10);
    assertThat(
            second.get("stable").nextVisitQueuePosition()
                - first.get("stable").nextVisitQueuePosition())
        .as("days(5) = 4 days further")
        .isBetween(4 * DAY * 9 / 10, 4 * DAY * 11 / 10);

    // Round 3: the third failure (and not found) in a row disables the origin.
    visitAgain();
    Map<String, OriginVisitStats> third = stats();
    assertThat(third.get("gone").successiveVisits()).isEqualTo(3);
    assertThat(third.get("broken").successiveVisits()).isEqualTo(3);
    assertThat(third.get("flip").lastVisitStatus()).isEqualTo(LastVisitStatus.SUCCESSFUL);
    assertThat(third.get("flip").nextPositionOffset()).as("4, +1, -2").isEqualTo(3);
    JsonNode disabled = drover("origin", "list", "--enabled", "no", "--json").json();
    assertThat(disabled)
        .extracting(o -> o.get("url").asText())
        .containsExactlyInAnyOrder(url("broken"), url("gone"));
    JsonNode afterThree = drover("metrics", "update", "--json").json().get(0);
    assertThat(afterThree.get("origins_known").asInt()).isEqualTo(5);
    assertThat(afterThree.get("origins_enabled").asInt()).isEqualTo(3);
    assertThat(afterThree.get("origins_never_visited").asInt()).isZero();
  }
}
