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
 * smoke run mean little. The peers that mostly wait in a smoke run ({@link
 * SmokeRuns#WAITING_PEERS}) and the frontier's workloads ({@link FrontierSmokeTest}) are in classes
 * of their own, which the build's other test JVMs run beside this class.
 */
class BenchSmokeTest {
  @Test
  void smokeRunWritesAFigurePerSystemDatabaseAndWorkload(@TempDir Path out) throws Exception {
    List<String> systems =
        Bench.SYSTEMS.keySet().stream()
            .filter(name -> !SmokeRuns.WAITING_PEERS.contains(name))
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
}
