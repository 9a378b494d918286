package dev.drover.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The latency of enqueueing one task through the HTTP API on loopback: starts the real {@code
 * drover serve --no-runner} (the shaded jar) on a fresh SQLite data dir, and times {@code POST
 * /api/v1/tasks} one request at a time from one client, each a new task (distinct arguments), after
 * a warm-up. Prints p50, p90, p99 and max in milliseconds. A measurement, not a test: run it on a
 * quiet machine and quote the median of a few runs (docs/benchmarks.md, "HTTP API").
 *
 * <pre>
 * java -cp drover-bench/target/drover-bench.jar dev.drover.bench.ApiEnqueue \
 *     drover-app/target/drover.jar [REQUESTS] [WARMUP]
 * </pre>
 */
public final class ApiEnqueue {
  private static final Pattern LISTENING = Pattern.compile("listening on (http://[^ ]+)");

  private ApiEnqueue() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: ApiEnqueue DROVER_JAR [REQUESTS] [WARMUP]");
      System.exit(2);
    }
    Path jar = Path.of(args[0]).toAbsolutePath();
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 3_000;
    Path dir = Files.createTempDirectory("drover-api-bench");
    Path data = dir.resolve("data");
    cli(jar, dir, "--data-dir", data.toString(), "init");
    cli(
        jar,
        dir,
        "--data-dir",
        data.toString(),
        "task-type",
        "add",
        "--name",
        "fetch",
        "--default-interval",
        "1d",
        "--command",
        "true",
        "--command",
        "{args.0}");
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
      for (int i = 0; i < warmup; i++) {
        enqueue(http, base, token, "w" + i);
      }
      long[] nanos = new long[requests];
      for (int i = 0; i < requests; i++) {
        long start = System.nanoTime();
        enqueue(http, base, token, "m" + i);
        nanos[i] = System.nanoTime() - start;
      }
      Arrays.sort(nanos);
      System.out.printf(
          Locale.ROOT,
          "POST /api/v1/tasks, one task per request, %d requests after %d warm-up, SQLite, "
              + "loopback, one client: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms%n",
          requests,
          warmup,
          ms(nanos, 0.50),
          ms(nanos, 0.90),
          ms(nanos, 0.99),
          nanos[nanos.length - 1] / 1e6);
    } finally {
      serve.destroy();
      serve.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static void enqueue(HttpClient http, String base, String token, String arg)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + "/api/v1/tasks"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"type\": \"fetch\", \"args\": [\"" + arg + "\"]}"))
            .build();
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("enqueue answered " + r.statusCode() + ": " + r.body());
    }
  }

  private static double ms(long[] sorted, double q) {
    return sorted[(int) Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] / 1e6;
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
    List<String> command = new java.util.ArrayList<>(List.of(java(), "-jar", jar.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("drover " + String.join(" ", args) + " failed");
    }
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
