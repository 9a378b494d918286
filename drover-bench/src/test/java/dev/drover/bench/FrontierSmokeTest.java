package dev.drover.bench;

import static dev.drover.bench.SmokeRuns.keyOfGoodResult;
import static dev.drover.bench.SmokeRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The frontier's workloads in smoke mode, as CI runs them, on both databases: recording, stats and
 * a grab per policy, and the visit scheduler feeding its queue. A class of its own so that a test
 * JVM runs it beside {@link BenchSmokeTest}. No timing is asserted.
 */
class FrontierSmokeTest {
  @Test
  void visitsSmokeRunFeedsTheQueueAndCountsThePasses(@TempDir Path out) throws Exception {
    JsonNode results =
        run(out, "--smoke", "--workloads", Visits.NAME, "--origins", "50000", "--visit-for", "2s")
            .get("results");
    List<String> seen = new ArrayList<>();
    for (JsonNode r : results) {
      String key = keyOfGoodResult(r);
      seen.add(key);
      JsonNode figures = r.get("figures");
      // 50,000 origins outlast the 7 s of visits: the leader kept the queue fed all along.
      assertThat(figures.get("visits_per_s").asDouble()).as(key).isPositive();
      assertThat(figures.get("queue_mean").asDouble()).as(key).isPositive();
      assertThat(r.get("raw").get("queue_samples").size()).as(key).isPositive();
      if (key.equals("drover/postgres/visits")) {
        // The server's CPU is counted on the pass thread; that counting is taken out of its CPU.
        JsonNode raw = r.get("raw");
        double withProbe = raw.get("pass_thread_cpu_s_with_probe").asDouble();
        double probe = raw.get("probe_cpu_s").asDouble();
        assertThat(probe).as(key).isPositive().isLessThan(withProbe);
        assertThat(figures.get("pass_cpu_pct").asDouble())
            .as(key)
            .isCloseTo(100 * (withProbe - probe) / raw.get("seconds").asDouble(), within(1e-9));
      }
    }
    assertThat(seen).containsExactlyInAnyOrder("drover/sqlite/visits", "drover/postgres/visits");
  }

  @Test
  void frontierSmokeRunGivesRecordThroughputAndAGrabLatencyPerPolicy(@TempDir Path out)
      throws Exception {
    JsonNode results =
        run(out, "--smoke", "--workloads", Frontier.NAME, "--origins", "10000", "--grabs", "2")
            .get("results");
    List<String> seen = new ArrayList<>();
    for (JsonNode r : results) {
      String key = keyOfGoodResult(r);
      seen.add(key);
      JsonNode figures = r.get("figures");
      assertThat(figures.get("origins").asInt()).as(key).isEqualTo(10000);
      assertThat(figures.get("record_per_s").asDouble()).as(key).isPositive();
      assertThat(figures.get("stats_per_s").asDouble()).as(key).isPositive();
      for (String policy :
          List.of(
              "oldest_scheduled_first",
              "stop_after_success",
              "never_visited_oldest_update_first",
              "already_visited_order_by_lag",
              "origins_without_last_update",
              "first_visits_after_listing")) {
        assertThat(figures.get(policy + "_p50_ms").asDouble()).as(key + " " + policy).isPositive();
        assertThat(r.get("raw").get(policy + "_latencies_ms")).as(key + " " + policy).hasSize(2);
      }
      // The grabs are real: they hand origins out (a small frontier runs dry after a few rounds).
      assertThat(r.get("raw").get("oldest_scheduled_first_returned").get(0).asInt())
          .as(key)
          .isPositive();
    }
    assertThat(seen)
        .containsExactlyInAnyOrder("drover/sqlite/frontier", "drover/postgres/frontier");
    assertThat(Files.readString(out.resolve(Report.MARKDOWN)))
        .contains("## frontier", "| drover | postgres |");
    assertThat(Files.readString(out.resolve(Report.SVG))).contains("drover · sqlite");
  }
}
