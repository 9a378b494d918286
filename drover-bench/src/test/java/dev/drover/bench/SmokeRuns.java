package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Set;
import java.util.stream.Stream;

/**
 * Runs of the bench in smoke mode, as the smoke tests make them, and the checks of their output.
 */
final class SmokeRuns {
  static final int SAMPLES = 1;
  static final int TASKS = 200;

  /**
   * The peers whose smoke runs are mostly waiting rather than computing, each in a test class of
   * its own ({@link JobRunrSmokeTest}, {@link GraphileWorkerSmokeTest}) rather than in {@link
   * BenchSmokeTest}'s, so that the build's test JVMs run them beside the rest.
   */
  static final Set<String> WAITING_PEERS = Set.of(JobRunrSystem.NAME, GraphileWorkerSystem.NAME);

  private SmokeRuns() {}

  /**
   * Runs the default workloads on {@code systems}, checks every figure they should give, and
   * returns the system/db/workload keys it ran.
   */
  static List<String> smokeRun(Path out, List<String> systems) throws Exception {
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
  static JsonNode run(Path out, String... args) throws Exception {
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
  static String keyOfGoodResult(JsonNode r) {
    String key =
        r.get("system").asText() + "/" + r.get("db").asText() + "/" + r.get("workload").asText();
    assertThat(r.get("error").isNull()).as(key + ": " + r.get("error")).isTrue();
    return key;
  }

  static boolean onPath(String command) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, command)));
  }
}
