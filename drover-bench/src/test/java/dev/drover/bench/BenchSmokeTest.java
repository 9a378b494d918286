package dev.drover.bench;

import static dev.drover.bench.SmokeRuns.keyOfGoodResult;
import static dev.drover.bench.SmokeRuns.run;
import static dev.drover.bench.SmokeRuns.smokeRun;
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
 * The bench in smoke mode, as CI runs it: every system on each of its databases gives a figure for
 * every workload, and the three output files are written. No timing is asserted; the figures of a
 * smoke run mean little. The peers that mostly wait in a smoke run are in {@link
 * WaitingPeersSmokeTest}, which another of the build's test JVMs runs beside this class.
 */
class BenchSmokeTest {
  @Test
  void smokeRunWritesAFigurePerSystemDatabaseAndWorkload(@TempDir Path out) throws Exception {
    List<String> systems =
        Bench.SYSTEMS.keySet().stream()
            .filter(name -> !WaitingPeersSmokeTest.SYSTEMS.contains(name))
            .toList();
    assertThat(smokeRun(out, systems))
        .contains(
            "quartz/postgres/burndown", "db-scheduler/sqlite/scaling", "drover/postgres/dbcost")
        .doesNotContain("quartz/sqlite/pickup");
    String md = Files.readString(out.resolve(Report.MARKDOWN));
    assertThat(md)
        .contains(
            "## pickup",
            "## burndown",
            "## sustained",
            "## scaling",
            "## dbcost",
            "| drover | postgres |",
            "| drover | sqlite |",
            "| quartz | postgres |",
            "| drover-failures-only | postgres |",
            "Drover's advantage over each peer",
            "| db-scheduler vs drover-failures-only | sqlite |",
            "## Configuration",
            "acquireTriggersWithinLock")
        .doesNotContain("failed");
    String svg = Files.readString(out.resolve(Report.SVG));
    assertThat(svg)
        .startsWith("<svg")
        .contains("drover · postgres", "quartz · postgres")
        .endsWith("</svg>\n");
  }

  @Test
  void roundsReportEachFigureAsTheirMedianAndEachRatioWithItsRange(@TempDir Path out)
      throws Exception {
    JsonNode json =
        run(
            out,
            "--smoke",
            "--rounds",
            "2",
            "--tasks",
            Integer.toString(SmokeRuns.TASKS),
            "--systems",
            "drover,db-scheduler",
            "--workloads",
            Burndown.NAME,
            "--db",
            "sqlite");

    assertThat(json.get("settings").get("rounds").asInt()).isEqualTo(2);
    List<String> seen = new ArrayList<>();
    for (JsonNode r : json.get("results")) {
      String key = keyOfGoodResult(r);
      seen.add(key);
      JsonNode rounds = r.get("raw").get(Rounds.KEY);
      assertThat(rounds).as(key).hasSize(2);
      double[] rates =
          List.of(rounds.get(0), rounds.get(1)).stream()
              .mapToDouble(round -> round.get("figures").get("jobs_per_s").asDouble())
              .toArray();
      assertThat(rates[0]).as(key).isPositive();
      assertThat(rates[1]).as(key).isPositive();
      assertThat(r.get("figures").get("jobs_per_s").asDouble())
          .as(key)
          .isCloseTo((rates[0] + rates[1]) / 2, within(1e-6));
    }
    assertThat(seen).containsExactly("drover/sqlite/burndown", "db-scheduler/sqlite/burndown");
    assertThat(Files.readString(out.resolve(Report.MARKDOWN)))
        .contains("- Rounds: 2 runs of each workload", "; by round ")
        .doesNotContain("failed");
  }

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
