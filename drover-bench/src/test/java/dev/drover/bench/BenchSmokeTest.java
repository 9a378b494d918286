package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drover.bench.Databases.Kind;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench in smoke mode, as CI runs it: every system on each of its databases gives a figure for
 * every workload, and the three output files are written. No timing is asserted; the figures of a
 * smoke run mean little. graphile-worker has a test of its own because it needs Node.js and npm on
 * the PATH: .ci/run installs them, and on a machine without them that test is reported skipped.
 */
class BenchSmokeTest {
  private static final int SAMPLES = 1;
  private static final int TASKS = 200;

  @Test
  void smokeRunWritesAFigurePerSystemDatabaseAndWorkload(@TempDir Path out) throws Exception {
    List<String> systems =
        Bench.SYSTEMS.keySet().stream()
            .filter(name -> !name.equals(GraphileWorkerSystem.NAME))
            .toList();
    assertThat(smokeRun(out, systems))
        .contains(
            "quartz/postgres/burndown",
            "db-scheduler/sqlite/scaling",
            "jobrunr/sqlite/sustained",
            "drover/postgres/dbcost")
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
            Integer.toString(TASKS),
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
  void graphileWorkerSmokeRunNextToDrover(@TempDir Path out) throws Exception {
    assumeTrue(onPath("node") && onPath("npm"), "graphile-worker needs node and npm on the PATH");
    smokeRun(out, List.of("drover", GraphileWorkerSystem.NAME));
    assertThat(Files.readString(out.resolve(Report.MARKDOWN)))
        .contains("| graphile-worker | postgres |")
        .doesNotContain("failed");
  }

  /**
   * Runs the default workloads on {@code systems}, checks every figure they should give, and
   * returns the system/db/workload keys it ran.
   */
  private static List<String> smokeRun(Path out, List<String> systems) throws Exception {
    JsonNode json =
        run(
            out,
            "--smoke",
            "--samples",
            Integer.toString(SAMPLES),
            "--tasks",
            Integer.toString(TASKS),
            // Only to keep CI short: the poll-only variant waits up to one poll interval per
            // sample.
            "--poll-interval",
            "250ms",
            "--systems",
            String.join(",", systems));
    assertThat(json.get("smoke").asBoolean()).isTrue();
    List<String> seen = new ArrayList<>();
    for (JsonNode r : json.get("results")) {
      String key = keyOfGoodResult(r);
      seen.add(key);
      JsonNode figures = r.get("figures");
      switch (r.get("workload").asText()) {
        case Pickup.NAME -> {
          assertThat(figures.get("samples").asInt()).as(key).isEqualTo(SAMPLES);
          assertThat(figures.get("p50_ms").asDouble()).as(key).isPositive();
          assertThat(r.get("raw").get("latencies_ms")).as(key).hasSize(SAMPLES);
        }
        case Burndown.NAME, Contended.NAME -> {
          assertThat(figures.get("tasks").asInt()).as(key).isEqualTo(TASKS);
          assertThat(figures.get("jobs_per_s").asDouble()).as(key).isPositive();
          // Warmed up first, unmeasured (one round at smoke size; a slow peer may not finish it).
          JsonNode warmup = r.get("raw").get("warmup");
          assertThat(warmup.get("rounds").asInt()).as(key).isEqualTo(1);
          assertThat(warmup.get("done").asLong()).as(key).isPositive();
          if (Files.isReadable(Path.of("/proc/self/stat"))) {
            // The CPU the system spent: its own side always, PostgreSQL's on PostgreSQL only.
            assertThat(figures.get("client_cpu_us_per_job").asDouble()).as(key).isPositive();
            if (r.get("db").asText().equals("postgres")) {
              assertThat(figures.get("server_cpu_us_per_job").asDouble()).as(key).isPositive();
            } else {
              assertThat(figures.has("server_cpu_us_per_job")).as(key).isFalse();
            }
          }
        }
        case Sustained.NAME -> {
          assertThat(figures.get("tasks").asInt()).as(key).isPositive();
          assertThat(figures.get("unstarted").asInt()).as(key).isZero();
          assertThat(figures.get("p99_ms").asDouble()).as(key).isPositive();
        }
        case Scaling.NAME -> {
          for (int size : List.of(100, 200)) {
            assertThat(figures.get(Scaling.key(size) + "_finished").asInt())
                .as(key + " @ " + size)
                .isEqualTo(1);
            assertThat(figures.get(Scaling.key(size)).asDouble())
                .as(key + " @ " + size)
                .isPositive();
          }
        }
        case DbCost.NAME -> {
          // Every task is at least one row inserted, whatever else the system writes.
          assertThat(figures.get("rows_written_per_job").asDouble())
              .as(key)
              .isGreaterThanOrEqualTo(1);
          assertThat(figures.get("transactions_per_job").asDouble()).as(key).isPositive();
        }
        default -> throw new AssertionError("unexpected workload in " + key);
      }
    }
    List<String> expected = new ArrayList<>();
    for (String system : systems) {
      SystemUnderTest s = Bench.SYSTEMS.get(system).get();
      for (Kind kind : Kind.values()) {
        for (Workload w : Bench.WORKLOADS.values()) {
          boolean byDefault = !w.name().equals(Frontier.NAME) && !w.name().equals(Visits.NAME);
          if (byDefault && s.supports(kind) && w.supports(kind)) {
            expected.add(system + "/" + kind.label() + "/" + w.name());
          }
        }
      }
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
    return seen;
  }

  /** Runs the bench with {@code args} into {@code out}, checks it exited 0, and reads its JSON. */
  private static JsonNode run(Path out, String... args) throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    String[] withOut = Arrays.copyOf(args, args.length + 2);
    withOut[args.length] = "--out";
    withOut[args.length + 1] = out.toString();
    int code =
        Bench.commandLine(new PrintStream(progress, true, StandardCharsets.UTF_8)).execute(withOut);
    assertThat(code).as(progress.toString(StandardCharsets.UTF_8)).isZero();
    return new ObjectMapper().readTree(out.resolve(Report.JSON).toFile());
  }

  /** A result's system/db/workload, after checking that it holds no error. */
  private static String keyOfGoodResult(JsonNode r) {
    String key =
        r.get("system").asText() + "/" + r.get("db").asText() + "/" + r.get("workload").asText();
    assertThat(r.get("error").isNull()).as(key + ": " + r.get("error")).isTrue();
    return key;
  }

  private static boolean onPath(String command) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, command)));
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
