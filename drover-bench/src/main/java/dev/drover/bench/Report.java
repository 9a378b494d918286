package dev.drover.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a bench run's results: results.json (raw figures), results.md (tables) and results.svg
 * (plot).
 */
record Report(
    Instant startedAt,
    String command,
    boolean smoke,
    Settings settings,
    Machine machine,
    String loadAverage,
    int rounds,
    List<Workload> workloads,
    List<Result> results) {
  static final String JSON = "results.json";
  static final String MARKDOWN = "results.md";
  static final String SVG = "results.svg";

  void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(JSON), json());
    Files.writeString(dir.resolve(MARKDOWN), markdown());
    Files.writeString(dir.resolve(SVG), Svg.plot(workloads, results, settings));
  }

  String json() throws IOException {
    ObjectMapper mapper =
        new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("started_at", startedAt.toString());
    root.put("command", command);
    root.put("smoke", smoke);
    root.put("machine", machine);
    root.put("load_average_before_after", loadAverage);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("workers", settings.workers());
    s.put("poll_interval_ms", settings.pollInterval().toMillis());
    s.put("samples", settings.samples());
    s.put("warmup", settings.warmup());
    s.put("burndown_tasks", settings.burndownTasks());
    s.put("timeout_s", settings.timeout().toSeconds());
    s.put("sustained_rate_per_s", settings.load().rate());
    s.put("sustained_for_s", settings.load().sustainFor().toMillis() / 1000.0);
    s.put("scale_sizes", settings.load().scaleSizes());
    s.put("scale_cap_s", settings.load().scaleCap().toSeconds());
    s.put("cost_tasks", settings.load().costTasks());
    s.put("frontier_origins", settings.origins());
    s.put("frontier_grabs_per_policy", settings.grabs());
    s.put("rounds", rounds);
    root.put("settings", s);
    root.put("results", results);
    return mapper.writeValueAsString(root) + "\n";
  }

  String markdown() {
    StringBuilder md = new StringBuilder("# drover-bench results\n\n");
    md.append("- Run: ")
        .append(startedAt)
        .append(smoke ? " (smoke mode: small N, the figures mean little)" : "")
        .append("\n- Machine: ")
        .append(machine.summary())
        .append("\n- Load average (1, 5, 15 min) before / after: ")
        .append(loadAverage)
        .append("\n- Command: `")
        .append(command)
        .append('`')
        .append("\n- Settings: ")
        .append(settings.workers())
        .append(" workers, poll interval ")
        .append(settings.pollInterval().toMillis())
        .append(" ms, up to ")
        .append(settings.warmup())
        .append(" warm-up pickups back to back (at most ")
        .append(Pickup.WARMUP_CAP.toSeconds())
        .append(" s) before the pickup and sustained workloads, and for sustained as long of its")
        .append(" load again, not counted\n");
    if (rounds > 1) {
      md.append("- Rounds: ")
          .append(rounds)
          .append(
              " runs of each workload per system and database, the systems taking turns to go"
                  + " first; each figure is the median of the rounds, and each ratio is the"
                  + " medians', then the range and median of the ratios paired round by round\n");
    }
    for (Workload w : workloads) {
      List<Result> rows = results.stream().filter(r -> r.workload().equals(w.name())).toList();
      if (rows.isEmpty()) {
        continue;
      }
      List<Workload.Column> columns = w.columns(settings);
      md.append("\n## ")
          .append(w.name())
          .append(": ")
          .append(w.title())
          .append("\n\n| system | db |");
      columns.forEach(c -> md.append(' ').append(c.heading()).append(" |"));
      md.append("\n|---|---|");
      columns.forEach(c -> md.append("--:|"));
      md.append('\n');
      for (Result r : rows) {
        md.append("| ").append(r.system()).append(" | ").append(r.db()).append(" |");
        if (r.ok()) {
          columns.forEach(c -> md.append(' ').append(w.cell(r, c)).append(" |"));
        } else {
          md.append(" failed: ")
              .append(r.error().replace('|', '/').replace('\n', ' '))
              .append(" |");
        }
        md.append('\n');
      }
      md.append(Ratios.table(w.ratios(settings), rows));
    }
    md.append(configurations());
    return md.toString();
  }

  /** Each system's configuration on each database, as the systems reported it. */
  private String configurations() {
    Map<String, Object> seen = new LinkedHashMap<>();
    for (Result r : results) {
      Object config = r.raw().get(CONFIGURATION);
      if (config instanceof Map<?, ?> m && !m.isEmpty()) {
        seen.putIfAbsent(r.system() + " on " + r.db(), m);
      }
    }
    if (seen.isEmpty()) {
      return "";
    }
    StringBuilder md =
        new StringBuilder("\n## Configuration\n\nEvery system runs ")
            .append(settings.workers())
            .append(" worker threads.\n\n");
    seen.forEach(
        (who, config) -> {
          md.append("- **").append(who).append("**: ");
          StringBuilder line = new StringBuilder();
          ((Map<?, ?>) config)
              .forEach(
                  (k, v) ->
                      line.append(line.length() == 0 ? "" : "; ").append(k).append(' ').append(v));
          md.append(line).append('\n');
        });
    return md.toString();
  }

  /** The key of a result's raw figures under which Bench records the system's configuration. */
  static final String CONFIGURATION = "configuration";

  /** Counts as they are; measures with three significant figures or so. Never locale-dependent. */
  static String format(Number n) {
    if (n == null) {
      return "";
    }
    if (n instanceof Integer || n instanceof Long) {
      return n.toString();
    }
    double d = n.doubleValue();
    String pattern = Math.abs(d) >= 100 ? "%.0f" : Math.abs(d) >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, pattern, d);
  }
}
