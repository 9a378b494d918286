package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drover.bench.Databases.Kind;
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
 * The bench in smoke mode, as CI runs it: every system on each of its databases gives a figure for
 * every workload, and the three output files are written. No timing is asserted; the figures of a
 * smoke run mean little. graphile-worker needs Node.js and npm on the PATH (.ci/run installs them).
 */
class BenchSmokeTest {
  private static final int SAMPLES = 1;
  private static final int TASKS = 200;

  @Test
  void smokeRunWritesAFigurePerSystemDatabaseAndWorkload(@TempDir Path out) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    int code = Bench.commandLine(new PrintStream(progress, true, StandardCharsets.UTF_8)).execute(
        "--smoke", "--samples", Integer.toString(SAMPLES), "--tasks", Integer.toString(TASKS),
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
      switch (r.get("workload").asText()) {
        case Pickup.NAME -> {
          assertThat(figures.get("samples").asInt()).as(key).isEqualTo(SAMPLES);
          assertThat(figures.get("p50_ms").asDouble()).as(key).isPositive();
          assertThat(r.get("raw").get("latencies_ms")).as(key).hasSize(SAMPLES);
        }
        case Burndown.NAME -> {
          assertThat(figures.get("tasks").asInt()).as(key).isEqualTo(TASKS);
          assertThat(figures.get("jobs_per_s").asDouble()).as(key).isPositive();
        }
        case Sustained.NAME -> {
          assertThat(figures.get("tasks").asInt()).as(key).isPositive();
          assertThat(figures.get("unstarted").asInt()).as(key).isZero();
          assertThat(figures.get("p99_ms").asDouble()).as(key).isPositive();
        }
        case Scaling.NAME -> {
          for (int size : List.of(100, 200)) {
            assertThat(figures.get(Scaling.key(size) + "_finished").asInt()).as(key + " @ " + size).isEqualTo(1);
            assertThat(figures.get(Scaling.key(size)).asDouble()).as(key + " @ " + size).isPositive();
          }
        }
        case DbCost.NAME -> {
          // Every task is at least one row inserted, whatever else the system writes.
          assertThat(figures.get("rows_written_per_job").asDouble()).as(key).isGreaterThanOrEqualTo(1);
          assertThat(figures.get("transactions_per_job").asDouble()).as(key).isPositive();
        }
        default -> throw new AssertionError("unexpected workload in " + key);
      }
    }
    List<String> expected = new ArrayList<>();
    for (String system : Bench.SYSTEMS.keySet()) {
      SystemUnderTest s = Bench.SYSTEMS.get(system).get();
      for (Kind kind : Kind.values()) {
        for (Workload w : Bench.WORKLOADS.values()) {
          if (s.supports(kind) && w.supports(kind)) {
            expected.add(system + "/" + kind.label() + "/" + w.name());
          }
        }
      }
    }
    assertThat(expected).contains("quartz/postgres/burndown", "graphile-worker/postgres/dbcost",
        "db-scheduler/sqlite/scaling", "jobrunr/sqlite/sustained").doesNotContain("quartz/sqlite/pickup");
    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);

    String md = Files.readString(out.resolve(Report.MARKDOWN));
    assertThat(md).contains("## pickup", "## burndown", "## sustained", "## scaling", "## dbcost",
        "| drover | postgres |", "| drover | sqlite |", "| graphile-worker | postgres |",
        "Drover's advantage over each peer", "## Configuration", "acquireTriggersWithinLock")
        .doesNotContain("failed");
    String svg = Files.readString(out.resolve(Report.SVG));
    assertThat(svg).startsWith("<svg").contains("drover · postgres", "quartz · postgres").endsWith("</svg>\n");
  }
}
