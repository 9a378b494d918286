package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.model.TaskRunStatus;
import dev.drover.store.StoreLocation;
import dev.drover.testing.Databases;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON API end to end over a real store: what the CLI does, through HTTP, with the same JSON
 * shapes as {@code --json}. One subclass per database.
 */
abstract class ApiContractIT {
  @TempDir Path tmp;
  private final Databases databases;
  private TestServer server;
  private ApiClient api;

  ApiContractIT(Databases databases) {
    this.databases = databases;
  }

  @BeforeEach
  void start() {
    StoreLocation location = databases.fresh();
    Fixtures.seed(location, tmp);
    server = TestServer.on(location);
    api = server.client;
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void taskTypesAreListedFetchedAndCreatedOnce() {
    JsonNode types = api.get("/api/v1/task-types").json();
    assertThat(types).extracting(t -> t.get("name").asText()).contains("load-git", "check");
    JsonNode loadGit = api.get("/api/v1/task-types/load-git").json();
    assertThat(loadGit)
        .isEqualTo(cli(JsonViews.taskType(server.drover.taskType("load-git").get())));
    assertThat(api.get("/api/v1/task-types/nope").status()).isEqualTo(404);

    String body =
        """
        {"name": "fetch", "default_interval": "1h", "min_interval": "10m",
         "max_interval": "1d", "backoff_factor": 2, "command": ["echo", "{args.0}"]}
        """;
    ApiClient.Reply created = api.post("/api/v1/task-types", body);
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.json().get("default_interval").asText()).isEqualTo("1h");
    assertThat(created.json().get("command")).hasSize(2);
    ApiClient.Reply again =
        api.post("/api/v1/task-types", "{\"name\": \"fetch\", \"default_interval\": \"2h\"}");
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("default_interval").asText()).isEqualTo("1h");
  }

  // A recurring task: an equal one is not created twice (oneshot ones also compare next_run).
  private static final String ONE = "{\"type\": \"load-git\", \"kwargs\": {\"path\": \"/x\"}}";

  @Test
  void tasksAreCreatedPagedByKeysetAndControlled() {
    JsonNode one = api.post("/api/v1/tasks", ONE).json();
    long id = one.get("id").asLong();
    assertThat(one).isEqualTo(cli(JsonViews.task(server.drover.task(id).orElseThrow())));
    // The same task again is the stored one, not a second task.
    assertThat(api.post("/api/v1/tasks", ONE).json().get("id").asLong()).isEqualTo(id);

    StringBuilder batch = new StringBuilder("{\"tasks\": [");
    for (int i = 0; i < 25; i++) {
      batch
          .append(i == 0 ? "" : ",")
          .append("{\"type\": \"load-git\", \"kwargs\": {\"path\": \"/r")
          .append(i)
          .append("\"}, \"priority\": \"low\"}");
    }
    JsonNode created = api.post("/api/v1/tasks/batch", batch.append("]}").toString()).json();
    assertThat(created).hasSize(25);

    List<Long> seen = new ArrayList<>();
    String next = "";
    int pages = 0;
    do {
      JsonNode page = api.get("/api/v1/tasks?limit=7" + next).json();
      page.get("items").forEach(t -> seen.add(t.get("id").asLong()));
      next = page.get("next").isNull() ? null : "&after=" + page.get("next").asLong();
      pages++;
    } while (next != null);
    long total = TaskAddCommand.taskCount(server.drover);
    assertThat(seen).hasSize((int) total).isSorted().doesNotHaveDuplicates();
    assertThat(pages).isEqualTo((int) (total + 6) / 7);
    JsonNode filtered = api.get("/api/v1/tasks?type=check&status=completed").json();
    assertThat(filtered.get("items"))
        .allSatisfy(t -> assertThat(t.get("status").asText()).isEqualTo("completed"));
    assertThat(filtered.get("items")).hasSize(1);

    assertThat(api.get("/api/v1/tasks/" + id).json().get("status").asText())
        .isEqualTo("next_run_not_scheduled");
    assertThat(api.post("/api/v1/tasks/" + id + "/disable", null).json().get("changed").asInt())
        .isEqualTo(1);
    assertThat(api.get("/api/v1/tasks/" + id).json().get("status").asText()).isEqualTo("disabled");
    assertThat(api.post("/api/v1/tasks/" + id + "/enable", null).json().get("changed").asInt())
        .isEqualTo(1);
    assertThat(api.get("/api/v1/tasks/999999").status()).isEqualTo(404);
  }

  @Test
  void runsStatusEventsRunnersAndFrontierReadAsTheCliPrintsThem() {
    Fixtures.runToEnd(server.drover, "load-git", TaskRunStatus.UNEVENTFUL);
    long id = server.drover.taskRuns(List.of(), TaskRunStatus.UNEVENTFUL, 1).get(0).taskId();
    JsonNode runs = api.get("/api/v1/tasks/" + id + "/runs").json();
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0))
        .isEqualTo(cli(JsonViews.taskRun(server.drover.taskRuns(List.of(id), null, 1).get(0))));
    assertThat(api.get("/api/v1/tasks/" + id + "/runs?status=failed").json()).isEmpty();

    assertThat(api.get("/api/v1/status").json()).isEqualTo(cli(StatusCommand.json(server.drover)));
    assertThat(api.get("/api/v1/events").json().isArray()).isTrue();
    assertThat(api.get("/api/v1/events?after=0&limit=5").json().isArray()).isTrue();
    assertThat(api.get("/api/v1/runners").json().isArray()).isTrue();
    assertThat(api.get("/api/v1/listers").json().isArray()).isTrue();
    JsonNode origins = api.get("/api/v1/origins?limit=10").json();
    assertThat(origins.get("items").isArray()).isTrue();
    assertThat(origins.has("next")).isTrue();
    assertThat(api.get("/api/v1/frontier-metrics").json().isArray()).isTrue();
    assertThat(api.get("/health").json().get("ok").asBoolean()).isTrue();
  }

  /** {@code node} as the CLI prints it and a client reads it back. */
  private static JsonNode cli(JsonNode node) {
    return DroverCli.parseJson(JsonViews.compact(node));
  }
}
