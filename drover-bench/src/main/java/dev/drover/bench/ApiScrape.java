package dev.drover.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Prometheus scrape of {@code drover serve} costs on a large store: starts the real {@code
 * drover serve --no-runner} on a fresh SQLite data dir, fills it with N tasks over two types
 * through {@code POST /api/v1/tasks/batch}, then times {@code GET /metrics} when its store gauges
 * are stale (older than 5 s: the scrape starts a read in the background and answers with the last
 * values) and when they are fresh, and {@code GET /api/v1/status}, which makes the same grouped
 * count in the request (what the background read costs). A measurement, not a test
 * (docs/benchmarks.md, "HTTP API").
 *
 * <pre>
 * java -cp drover-bench/target/drover-bench.jar dev.drover.bench.ApiScrape \
 *     drover-app/target/drover.jar [TASKS]
 * </pre>
 */
public final class ApiScrape {
  private static final Pattern LISTENING = Pattern.compile("listening on (http://[^ ]+)");
  private static final int BATCH = 10_000;

  private ApiScrape() {}

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]).toAbsolutePath();
    int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    Path dir = Files.createTempDirectory("drover-scrape-bench");
    Path data = dir.resolve("data");
    for (String type : List.of("fetch", "check")) {
      cli(jar, dir, "--data-dir", data.toString(), "init");
      cli(
          jar,
          dir,
          "--data-dir",
          data.toString(),
          "task-type",
          "add",
          "--name",
          type,
          "--default-interval",
          "1d",
          "--command",
          "true",
          "--command",
          "{args.0}");
    }
    Path out = dir.resolve("serve.out");
    Process serve =
        new ProcessBuilder(
                java(),
                "-jar",
                jar.toString(),
                "--data-dir",
                data.toString(),
                "serve",
                "--no-runner",
                "--listen",
                "127.0.0.1:0")
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(dir.resolve("serve.err").toFile())
            .start();
    try {
      String base = awaitBase(serve, out);
      String token = Files.readString(data.resolve("api-token")).trim();
      HttpClient http = HttpClient.newHttpClient();
      long fillStart = System.nanoTime();
      for (int from = 0; from < tasks; from += BATCH) {
        StringBuilder body = new StringBuilder("{\"tasks\": [");
        for (int i = from; i < Math.min(tasks, from + BATCH); i++) {
          body.append(i == from ? "" : ",")
              .append("{\"type\": \"")
              .append(i % 2 == 0 ? "fetch" : "check")
              .append("\", \"args\": [\"t")
              .append(i)
              .append("\"]}");
        }
        HttpResponse<Void> r =
            http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/tasks/batch"))
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.append("]}").toString()))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() != 200) {
          throw new IllegalStateException("batch answered " + r.statusCode());
        }
      }
      double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
      List<String> stale = new ArrayList<>();
      List<String> fresh = new ArrayList<>();
      List<String> status = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        Thread.sleep(5_500); // past the store gauges' 5 s
        stale.add(time(http, base + "/metrics"));
        status.add(time(http, base + "/api/v1/status"));
        fresh.add(time(http, base + "/metrics"));
      }
      System.out.printf(
          Locale.ROOT,
          "%d tasks in 2 types (filled through the batch API in %.1f s, %.0f tasks/s), SQLite:"
              + " GET /metrics with stale store gauges %s ms, fresh %s ms; GET /api/v1/status"
              + " (the grouped count) %s ms%n",
          tasks,
          fillSeconds,
          tasks / fillSeconds,
          stale,
          fresh,
          status);
    } finally {
      serve.destroy();
      serve.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static String time(HttpClient http, String url) throws Exception {
    long start = System.nanoTime();
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    double ms = (System.nanoTime() - start) / 1e6;
    if (r.statusCode() != 200) {
      throw new IllegalStateException("scrape answered " + r.statusCode());
    }
    return String.format(Locale.ROOT, "%.1f", ms);
  }

  private static String awaitBase(Process serve, Path out) throws Exception {
    for (int i = 0; i < 600; i++) {
      Matcher m = LISTENING.matcher(Files.readString(out, StandardCharsets.UTF_8));
      if (m.find()) {
        return m.group(1);
      }
      if (!serve.isAlive()) {
        throw new IllegalStateException("drover serve exited with " + serve.exitValue());
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("drover serve did not start in 60 s");
  }

  private static void cli(Path jar, Path dir, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("drover " + String.join(" ", args) + " failed");
    }
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
