package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Json;
import dev.drover.Outcome;
import dev.drover.app.http.ServerMetrics;
import dev.drover.engine.RunnerOptions;
import dev.drover.model.Event;
import dev.drover.model.EventKind;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import dev.drover.store.StoreLocation;
import dev.drover.testing.Databases;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server as a whole: its routes against its OpenAPI description, the event stream, and the
 * Prometheus scrape, on SQLite.
 */
class ApiRoutesIT {
  @RegisterExtension final Databases databases = Databases.sqlite();
  @TempDir Path tmp;
  private TestServer server;

  @BeforeEach
  void start() {
    StoreLocation location = databases.fresh();
    Fixtures.seed(location, tmp);
    server = TestServer.on(location);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void everyRegisteredRouteIsDescribedInTheOpenApiDocumentAndBack() {
    JsonNode doc = server.client.get("/api/v1/openapi.json").json();
    assertThat(doc.get("openapi").asText()).startsWith("3.");
    Set<String> described = new TreeSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = doc.get("paths").fields();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      path.getValue()
          .fieldNames()
          .forEachRemaining(m -> described.add(m.toUpperCase() + " " + path.getKey()));
    }
    Set<String> registered = new TreeSet<>(server.server.routes());
    assertThat(registered).isNotEmpty();
    assertThat(described).containsExactlyInAnyOrderElementsOf(registered);
  }

  @Test
  @Timeout(60)
  void theEventStreamSendsTheBacklogThenNewEvents() throws Exception {
    Instant now = server.drover.now();
    server.drover.store().eventAppend(List.of(event(now, 1L)));
    HttpResponse<InputStream> response = stream("/api/v1/events/stream?after=0");
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      JsonNode first = nextEvent(lines);
      assertThat(first.get("task").asLong()).isEqualTo(1L);
      server.drover.store().eventAppend(List.of(event(now, 2L)));
      JsonNode second = nextEvent(lines);
      assertThat(second.get("task").asLong()).isEqualTo(2L);
      assertThat(second.get("id").asLong()).isGreaterThan(first.get("id").asLong());
    }
  }

  /**
   * A reconnecting browser sends the page's URL again (its {@code after} is where the page started)
   * with {@code Last-Event-ID}, the last event it got: the stream goes on from the header, so no
   * event arrives twice.
   */
  @Test
  @Timeout(60)
  void aReconnectingStreamGoesOnFromItsLastEventIdNotThePagesAfter() throws Exception {
    Instant now = server.drover.now();
    server.drover.store().eventAppend(List.of(event(now, 1L)));
    server.drover.store().eventAppend(List.of(event(now, 2L)));
    long seen =
        server.drover.store().eventTail(2).stream().mapToLong(Event::id).min().orElseThrow();
    HttpResponse<InputStream> response =
        stream("/api/v1/events/stream?after=0", "Last-Event-ID", Long.toString(seen));
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      JsonNode first = nextEvent(lines);
      assertThat(first.get("id").asLong()).isGreaterThan(seen);
      assertThat(first.get("task").asLong()).isEqualTo(2L);
    }
  }

  @Test
  @Timeout(60)
  void theDashboardShowsTheCountsAndKeepsThemLive() throws Exception {
    ApiClient.Reply page = server.client.get("/");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.headers().get("content-type"))
        .anySatisfy(t -> assertThat(t).startsWith("text/html"));
    assertThat(page.body())
        .contains("<td>load-git</td><td class=\"n\">2</td>")
        .contains(
            "<th>due</th><th>waiting</th><th>running</th><th>awaiting</th><th>paused</th>"
                + "<th>done</th><th>failed</th><th>disabled</th><th>total</th>")
        .contains("new EventSource('/api/v1/status/stream')");
    long newest = server.drover.store().eventTail(1).stream().mapToLong(Event::id).sum();
    assertThat(page.body())
        .as("the page shows the newest events and streams only newer ones")
        .contains("<div id=\"events\" data-after=\"" + newest + "\">");

    ApiClient.Reply task = server.client.get("/tasks/4");
    assertThat(task.status()).isEqualTo(200);
    assertThat(task.body()).contains("<h1>Task 4</h1>", "<td>completed</td>", "<td>eventful</td>");
    assertThat(server.client.get("/tasks/999").status()).isEqualTo(404);
    assertThat(server.client.get("/tasks?id=x").status()).isEqualTo(400);

    HttpResponse<InputStream> response = stream("/api/v1/status/stream");
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      JsonNode first = next(lines, "status");
      assertThat(row(first, "load-git").get("total").asLong()).isEqualTo(2);
      server.client.post(
          "/api/v1/tasks", "{\"type\": \"load-git\", \"kwargs\": {\"path\": \"/c\"}}");
      JsonNode second = next(lines, "status");
      assertThat(row(second, "load-git").get("total").asLong()).isEqualTo(3);
    }
  }

  private static JsonNode row(JsonNode status, String type) {
    for (JsonNode r : status) {
      if (r.get("type").asText().equals(type)) {
        return r;
      }
    }
    throw new AssertionError("no row of " + type + " in " + status);
  }

  private HttpResponse<InputStream> stream(String path, String... headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.server.port() + path))
            .header("Accept", "text/event-stream");
    if (headers.length > 0) {
      request.headers(headers);
    }
    HttpResponse<InputStream> response =
        HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    return response;
  }

  @Test
  void metricsAreScrapedInThePrometheusTextFormat() throws Exception {
    Map<String, Double> scrape = parse(server.client.get("/metrics").body());
    assertThat(scrape)
        .containsEntry("drover_tasks{status=\"next_run_not_scheduled\",type=\"load-git\"}", 2.0)
        .containsEntry("drover_tasks{status=\"completed\",type=\"check\"}", 1.0)
        .containsKey("drover_task_oldest_due_age_seconds{type=\"load-git\"}")
        .containsKey("drover_pool_connections{state=\"active\"}")
        .containsKey("drover_store_gauges_age_seconds");
    assertThat(scrape.get("drover_task_oldest_due_age_seconds{type=\"load-git\"}")).isPositive();

    // The runner's meters: three executions of a handler, counted and timed under its type.
    server.drover.taskTypeCreate(TaskType.builder("noop").build());
    server.drover.taskCreate(
        List.of(
            NewTask.oneshot("noop", TaskArguments.of(List.of(1), null)),
            NewTask.oneshot("noop", TaskArguments.of(List.of(2), null)),
            NewTask.oneshot("noop", TaskArguments.of(List.of(3), null))));
    ServerMetrics metrics = new ServerMetrics(server.drover);
    var runner =
        server
            .drover
            .runner(tmp.resolve("runs"))
            .options(RunnerOptions.defaults(tmp.resolve("runs")).withTypes(Set.of("noop")))
            .handlers(metrics.counting(Map.of("noop", context -> Outcome.eventful())))
            .build();
    metrics.watch(runner, 4);
    runner.run();
    Map<String, Double> after = parse(metrics.scrape());
    assertThat(after.get("drover_passes_total")).isPositive();
    assertThat(after)
        .containsEntry("drover_runs_ended_total{outcome=\"eventful\",type=\"noop\"}", 3.0)
        .containsEntry("drover_run_duration_seconds_count{type=\"noop\"}", 3.0)
        .containsEntry("drover_run_duration_seconds_bucket{type=\"noop\",le=\"+Inf\"}", 3.0)
        .containsEntry("drover_workers{state=\"busy\"}", 0.0)
        .containsEntry("drover_workers{state=\"idle\"}", 4.0)
        .containsEntry("drover_tasks_claimed_total", 3.0)
        .containsKey("drover_leases_rescued_total")
        .containsKey("drover_pass_seconds_total")
        .containsKey("drover_leases_lost_total")
        .containsKey("drover_visit_pass_cpu_seconds_total");
    // The fixtures have a load-git type: the runner led, so it ran a visit pass before it left.
    assertThat(after.get("drover_visit_passes_total")).isPositive();
    assertThat(after.get("drover_visit_pass_seconds_total")).isPositive();
    metrics.close();
  }

  /** Each sample line of the Prometheus text format: the series (name and labels) to its value. */
  static Map<String, Double> parse(String text) {
    Map<String, Double> samples = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return samples;
  }

  private static Event event(Instant at, Long task) {
    return Event.of(at, EventKind.values()[0], "test-runner", task, Json.object());
  }

  /** Reads server-sent lines up to the next {@code data:} of an {@code event} event. */
  private static JsonNode nextEvent(BufferedReader lines) throws java.io.IOException {
    return next(lines, "event");
  }

  /** Reads server-sent lines up to the {@code data:} of the next event named {@code name}. */
  private static JsonNode next(BufferedReader lines, String name) throws java.io.IOException {
    String line;
    boolean isEvent = false;
    while ((line = lines.readLine()) != null) {
      if (line.equals("event: " + name)) {
        isEvent = true;
      } else if (isEvent && line.startsWith("data: ")) {
        return DroverCli.parseJson(line.substring("data: ".length()));
      }
    }
    throw new AssertionError("the stream ended");
  }
}
