package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's verbs through the CLI, on the tree {@code drover demo archive} leaves. */
class OperatorCliIT {
  @TempDir Path tmp;

  private DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = tmp.resolve("data");
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.in(tmp).run(all).ok();
  }

  private JsonNode resultCounts() {
    for (JsonNode row : drover("status", "--json").json()) {
      if (row.get("type").asText().equals(ArchiveHandlers.RESULT)) {
        return row;
      }
    }
    throw new AssertionError("no archive-result row");
  }

  @Test
  void pauseResumeRetryCancelAndDeleteATree() throws Exception {
    drover("demo", "archive");
    JsonNode tree = drover("task", "tree", "1", "--json").json();
    assertThat(tree.at("/counts/completed").asInt()).isEqualTo(26);
    assertThat(tree.at("/tree/children").size()).isEqualTo(5);

    JsonNode added =
        drover("task", "add", "--type", ArchiveHandlers.RESULT, "--parent", "1", "--json").json();
    assertThat(added.get(0).get("status").asText()).isEqualTo("next_run_not_scheduled");
    JsonNode grown = drover("task", "tree", "1", "--json").json();
    assertThat(grown.at("/counts/completed").asInt()).as("the crawl stays sealed").isEqualTo(26);
    assertThat(grown.at("/counts/next_run_not_scheduled").asInt()).isEqualTo(1);
    assertThat(drover("task", "delete", added.get(0).get("id").asText()).stdout())
        .contains("deleted 1 task");

    assertThat(drover("task", "retry", "7").stdout()).contains("retried 1 task");
    assertThat(drover("task", "pause", "7").stdout()).contains("paused 1 task");
    assertThat(resultCounts().get("paused").asInt()).isEqualTo(1);
    assertThat(drover("task", "resume", "7").stdout()).contains("resumed 1 task");
    assertThat(drover("task", "cancel", "7").stdout()).contains("cancelled 1 task");
    assertThat(drover("task", "show", "7").stdout()).contains("disabled (by an operator");
    assertThat(resultCounts().get("disabled_by_operator").asInt()).isEqualTo(1);
    assertThat(resultCounts().get("failed").asInt()).isZero();

    assertThat(drover("task-type", "pause", ArchiveHandlers.RESULT).stdout())
        .contains("paused task type archive-result");
    assertThat(resultCounts().get("type_paused").asBoolean()).isTrue();
    assertThat(drover("status").stdout()).contains(ArchiveHandlers.RESULT + " (paused)");
    assertThat(drover("task-type", "resume", ArchiveHandlers.RESULT).stdout())
        .contains("resumed task type archive-result");
    assertThat(resultCounts().get("type_paused").asBoolean()).isFalse();

    assertThat(drover("task", "delete", "1", "--tree").stdout())
        .contains("deleted 26 tasks, 26 runs and 5 run directories");
    Path snapshots = tmp.resolve("data/runs").resolve(ArchiveHandlers.SNAPSHOT);
    try (Stream<Path> left = Files.exists(snapshots) ? Files.list(snapshots) : Stream.empty()) {
      assertThat(left).isEmpty();
    }
    assertThat(resultCounts().get("total").asInt()).isZero();
    assertThat(drover("events").stdout()).contains("operator_control");
  }
}
