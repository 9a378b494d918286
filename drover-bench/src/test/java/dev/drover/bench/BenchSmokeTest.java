package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench in smoke mode, as CI runs it: every system, database and workload gives a figure and
 * the three output files are written. No timing is asserted; the figures of a smoke run mean little.
 */
class BenchSmokeTest {
  @Test
  void smokeRunWritesAFigurePerSystemDatabaseAndWorkload(@TempDir Path out) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = Bench.commandLine(new PrintStream(progress, true, StandardCharsets.UTF_8)).execute(
        "--smoke", "--samples", "5", "--tasks", "200",
        // Only to keep CI short: the poll-only variant waits up to one poll interval per sample.
        "--poll-interval", "250ms",
        "--out", out.toString());
    String log = progress.toString(StandardCharsets.UTF_8);
    assertThat(code).as(log).isZero();

    JsonNode json = new ObjectMapper().readTree(out.resolve(Report.JSON).toFile());
    assertThat(json.get("smoke").asBoolean()).isTrue();
    List<String> seen = new ArrayList<>();
    for (JsonNode r : json.get("results")) {
      String key = r.get("system").asText() + "/" + r.get("db").asText() + "/" + r.get("workload").asText();
      seen.add(key);
      assertThat(r.get("error").isNull()).as(key + ": " + r.get("error")).isTrue();
      JsonNode figures = r.get("figures");
      if (r.get("workload").asText().equals(Pickup.NAME)) {
        assertThat(figures.get("samples").asInt()).as(key).isEqualTo(5);
        assertThat(figures.get("p50_ms").asDouble()).as(key).isPositive();
        assertThat(figures.get("p99_ms").asDouble()).as(key).isPositive();
        assertThat(r.get("raw").get("latencies_ms")).as(key).hasSize(5);
      } else {
        assertThat(figures.get("tasks").asInt()).as(key).isEqualTo(200);
        assertThat(figures.get("jobs_per_s").asDouble()).as(key).isPositive();
      }
    }
    assertThat(seen).containsExactlyInAnyOrder(
        "drover/sqlite/pickup", "drover/sqlite/burndown", "drover/postgres/pickup", "drover/postgres/burndown");

    String md = Files.readString(out.resolve(Report.MARKDOWN));
    assertThat(md).contains("## pickup", "## burndown", "| drover | postgres |", "| drover | sqlite |")
        .doesNotContain("failed");
    String svg = Files.readString(out.resolve(Report.SVG));
    assertThat(svg).startsWith("<svg").contains("drover · postgres").endsWith("</svg>\n");
  }

  @Test
  void frontierSmokeRunGivesRecordThroughputAndAGrabLatencyPerPolicy(@TempDir Path out) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = Bench.commandLine(new PrintStream(progress, true, StandardCharsets.UTF_8)).execute(
        "--smoke", "--workloads", Frontier.NAME, "--origins", "10000", "--grabs", "2", "--out", out.toString());
    String log = progress.toString(StandardCharsets.UTF_8);
    assertThat(code).as(log).isZero();

    JsonNode results = new ObjectMapper().readTree(out.resolve(Report.JSON).toFile()).get("results");
    List<String> seen = new ArrayList<>();
    for (JsonNode r : results) {
      String key = r.get("system").asText() + "/" + r.get("db").asText() + "/" + r.get("workload").asText();
      seen.add(key);
      assertThat(r.get("error").isNull()).as(key + ": " + r.get("error")).isTrue();
      JsonNode figures = r.get("figures");
      assertThat(figures.get("origins").asInt()).as(key).isEqualTo(10000);
      assertThat(figures.get("record_per_s").asDouble()).as(key).isPositive();
      assertThat(figures.get("stats_per_s").asDouble()).as(key).isPositive();
      for (String policy : List.of("oldest_scheduled_first", "stop_after_success", "never_visited_oldest_update_first",
          "already_visited_order_by_lag", "origins_without_last_update", "first_visits_after_listing")) {
        assertThat(figures.get(policy + "_p50_ms").asDouble()).as(key + " " + policy).isPositive();
        assertThat(r.get("raw").get(policy + "_latencies_ms")).as(key + " " + policy).hasSize(2);
      }
      // The grabs are real: they hand origins out (a small frontier runs dry after a few rounds).
      assertThat(r.get("raw").get("oldest_scheduled_first_returned").get(0).asInt()).as(key).isPositive();
    }
    assertThat(seen).containsExactlyInAnyOrder("drover/sqlite/frontier", "drover/postgres/frontier");
    assertThat(Files.readString(out.resolve(Report.MARKDOWN))).contains("## frontier", "| drover | postgres |");
    assertThat(Files.readString(out.resolve(Report.SVG))).contains("drover · sqlite");
  }
}
