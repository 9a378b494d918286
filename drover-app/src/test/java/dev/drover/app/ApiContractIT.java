package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.Outcome;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.RunnerStats;
import dev.drover.frontier.Lister;
import dev.drover.model.ChildrenRule;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.StoreLocation;
import dev.drover.testing.Databases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
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
         "max_interval": "1d", "backoff_factor": 2, "command": ["echo", "{args.0}"],
         "run_history": "failures"}
        """;
    ApiClient.Reply created = api.post("/api/v1/task-types", body);
    assertThat(created.status()).isEqualTo(201);
    assertThat(created.json().get("default_interval").asText()).isEqualTo("1h");
    assertThat(created.json().get("run_history").asText()).isEqualTo("failures");
    assertThat(created.json().get("children_rule").asText()).isEqualTo("all_succeeded");
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

  /**
   * A lister that runs elsewhere adds itself and records its pages of origins over HTTP; the
   * answers have the shapes of {@code lister add --json} and {@code origin record --json}, and the
   * origins read back as {@code GET /origins} lists them.
   */
  @Test
  void aListerAddsItselfAndRecordsItsOriginsThroughHttp() {
    ApiClient.Reply added =
        api.post("/api/v1/listers", "{\"name\": \"gitea\", \"instance_name\": \"codeberg\"}");
    assertThat(added.status()).as(added.body()).isEqualTo(201);
    Lister lister = server.drover.frontier().listerGet("gitea", "codeberg").orElseThrow();
    assertThat(added.json()).isEqualTo(cli(FrontierViews.lister(lister)));
    ApiClient.Reply again =
        api.post("/api/v1/listers", "{\"name\": \"gitea\", \"instance_name\": \"codeberg\"}");
    assertThat(again.status()).as("it existed").isEqualTo(200);
    assertThat(again.json()).isEqualTo(added.json());

    String page =
        """
        {"lister": "gitea", "instance": "codeberg", "origins": [
          {"url": "https://codeberg.org/a", "visit_type": "git", "last_update": "2026-01-02T00:00:00Z",
           "extra_loader_arguments": {"depth": 1}},
          {"url": "https://codeberg.org/b", "visit_type": "git", "enabled": false}]}
        """;
    ApiClient.Reply recorded = api.post("/api/v1/origins", page);
    assertThat(recorded.status()).as(recorded.body()).isEqualTo(200);
    assertThat(recorded.json())
        .extracting(o -> o.get("url").asText())
        .containsExactly("https://codeberg.org/a", "https://codeberg.org/b");
    JsonNode listed = api.get("/api/v1/origins?lister=" + lister.id()).json().get("items");
    assertThat(listed).isEqualTo(recorded.json());
    assertThat(listed.get(0).get("extra_loader_arguments").get("depth").asInt()).isEqualTo(1);
    assertThat(listed.get(1).get("enabled").asBoolean()).isFalse();

    // The same page again updates the same two origins.
    assertThat(api.post("/api/v1/origins", page).status()).isEqualTo(200);
    assertThat(api.get("/api/v1/origins?lister=" + lister.id()).json().get("items")).hasSize(2);
  }

  // ---- operator control: each change made through HTTP, checked through the Java API

  @Test
  void aPausedTreeIsNotClaimedUntilResumedThroughHttp() throws Exception {
    long parent = tree(3);
    JsonNode paused = api.post("/api/v1/tasks/" + parent + "/pause?tree=true", null).json();
    assertThat(paused.get("changed").asInt()).as("the waiting parent stays").isEqualTo(3);
    assertThat(paused.get("running").asInt()).isZero();
    assertThat(server.drover.taskChildren(parent, 0, 10))
        .hasSize(3)
        .allSatisfy(t -> assertThat(t.status()).isEqualTo(TaskStatus.PAUSED));
    assertThat(server.drover.taskPeekReady("page", 10)).isEmpty();
    assertThat(server.drover.taskGrabReady("page", 10, 10)).isEmpty();

    JsonNode resumed = api.post("/api/v1/tasks/" + parent + "/resume?tree=true", null).json();
    assertThat(resumed.get("changed").asInt()).isEqualTo(3);
    assertThat(server.drover.taskGrabReady("page", 10, 10)).hasSize(3);
  }

  @Test
  void aPausedTaskIsPausedAndARunningOneIsLeftToFinish() {
    long waiting = api.post("/api/v1/tasks", ONE).json().get("id").asLong();
    JsonNode paused = api.post("/api/v1/tasks/" + waiting + "/pause", null).json();
    assertThat(paused.get("changed").asInt()).isEqualTo(1);
    assertThat(server.drover.task(waiting).orElseThrow().status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(api.get("/api/v1/tasks/" + waiting).json().get("status").asText())
        .isEqualTo("paused");
    assertThat(server.drover.taskGrabReady("load-git", 100, 100))
        .extracting(Task::id)
        .doesNotContain(waiting);

    long running = api.post("/api/v1/tasks", ONE.replace("/x", "/y")).json().get("id").asLong();
    server.drover.taskGrabReady("load-git", 100, 100);
    assertThat(server.drover.task(running).orElseThrow().status())
        .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
    JsonNode left = api.post("/api/v1/tasks/" + running + "/pause", null).json();
    assertThat(left.get("changed").asInt()).as("marked to pause at its run's end").isOne();
    assertThat(left.get("running").asInt()).isEqualTo(1);
    assertThat(server.drover.task(running).orElseThrow().status())
        .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
  }

  @Test
  void cancellingARunningTreeStopsItsRunAndStatusTellsFailedFromDisabled() throws Exception {
    long parent = tree(3);
    List<Long> pages = childIds(parent);
    // One page runs, one failed for good, one waits.
    Task runningPage = server.drover.taskGrabReady("page", 1, 1).get(0);
    TaskRun run = server.drover.taskRunSchedule(List.of(runningPage.id())).get(0);
    server.drover.taskRunStart(run.backendId(), null);
    TaskRun failedRun = Fixtures.runToEnd(server.drover, "page", TaskRunStatus.PERMFAILED).get(0);
    long failed = failedRun.taskId();
    assertThat(server.drover.task(failed).orElseThrow().status()).isEqualTo(TaskStatus.DISABLED);

    JsonNode cancelled = api.post("/api/v1/tasks/" + parent + "/cancel?tree=true", null).json();
    assertThat(cancelled.get("changed").asInt()).as("the parent and two pages").isEqualTo(3);
    assertThat(server.drover.taskRuns(List.of(runningPage.id()), null, 1).get(0).status())
        .isEqualTo(TaskRunStatus.CANCELLED);
    for (long id : pages) {
      assertThat(server.drover.task(id).orElseThrow().status()).isEqualTo(TaskStatus.DISABLED);
    }
    assertThat(server.drover.taskGrabReady("page", 10, 10)).isEmpty();

    // Both are "disabled" as stored; the family and failed_for_good tell them apart.
    JsonNode byOperator = api.get("/api/v1/tasks/" + runningPage.id()).json();
    assertThat(byOperator.get("status").asText()).isEqualTo("disabled");
    assertThat(byOperator.get("failed_for_good").asBoolean()).isFalse();
    assertThat(byOperator.at("/family/disabled_by_operator").asBoolean()).isTrue();
    assertThat(byOperator.at("/family/parent").asLong()).isEqualTo(parent);
    JsonNode forGood = api.get("/api/v1/tasks/" + failed).json();
    assertThat(forGood.get("failed_for_good").asBoolean()).isTrue();
    assertThat(forGood.at("/family/disabled_by_operator").asBoolean()).isFalse();
    assertThat(forGood)
        .isEqualTo(
            cli(
                JsonViews.taskInFamily(
                    server.drover.task(failed).orElseThrow(),
                    server.drover.taskFamily(failed).orElseThrow())));

    JsonNode status = api.get("/api/v1/status").json();
    assertThat(status).isEqualTo(cli(StatusCommand.json(server.drover)));
    JsonNode page = row(status, "page");
    assertThat(page.get("failed").asInt()).isEqualTo(1);
    assertThat(page.get("disabled_by_operator").asInt()).isEqualTo(2);
    assertThat(page.get("disabled").asInt()).isEqualTo(3);
  }

  @Test
  void aRetriedTaskIsDueAgainWithItsRetriesBack() {
    long id = api.post("/api/v1/tasks", ONE).json().get("id").asLong();
    assertThat(api.post("/api/v1/tasks/" + id + "/cancel", null).json().get("changed").asInt())
        .isEqualTo(1);
    assertThat(server.drover.task(id).orElseThrow().status()).isEqualTo(TaskStatus.DISABLED);

    assertThat(api.post("/api/v1/tasks/" + id + "/retry", null).json().get("changed").asInt())
        .isEqualTo(1);
    Task retried = server.drover.task(id).orElseThrow();
    assertThat(retried.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(retried.retriesLeft()).isEqualTo(3);
    assertThat(server.drover.taskGrabReady("load-git", 100, 100)).extracting(Task::id).contains(id);
  }

  @Test
  void deletingATreeRemovesItsTasksRunsAndRunDirectories() throws Exception {
    long parent = tree(2);
    Fixtures.runToEnd(server.drover, "page", TaskRunStatus.EVENTFUL);
    List<Long> ids = new ArrayList<>(childIds(parent));
    ids.add(parent);
    List<TaskRun> runs = server.drover.taskRuns(ids, null, 100);
    assertThat(runs).hasSize(3);
    List<Path> dirs = new ArrayList<>();
    for (TaskRun r : runs) {
      String type = server.drover.task(r.taskId()).orElseThrow().type();
      Path dir = server.runsDir.resolve(type).resolve(r.backendId());
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("stdout.log"), "output");
      dirs.add(dir);
    }
    // Another task's run directory is not touched.
    Path other = Files.createDirectories(server.runsDir.resolve("check").resolve("other-run"));

    ApiClient.Reply reply =
        api.send(
            "/api/v1/tasks/" + parent + "?tree=true",
            "DELETE",
            null,
            "Bearer " + ApiClient.TOKEN,
            null);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().get("tasks").asInt()).isEqualTo(3);
    assertThat(reply.json().get("runs").asInt()).isEqualTo(3);
    assertThat(reply.json().get("run_directories").asInt()).isEqualTo(3);
    assertThat(server.drover.store().taskGet(ids)).isEmpty();
    assertThat(server.drover.taskRuns(ids, null, 100)).isEmpty();
    assertThat(dirs).allSatisfy(d -> assertThat(d).doesNotExist());
    assertThat(other).isDirectory();
    assertThat(api.get("/api/v1/tasks/" + parent).status()).isEqualTo(404);
  }

  @Test
  void aPausedTaskTypeIsNotClaimedByARunnerUntilResumed() throws Exception {
    server.drover.taskTypeCreate(TaskType.builder("noop").build());
    long id =
        server
            .drover
            .taskCreate(List.of(NewTask.oneshot("noop", TaskArguments.of(List.of(1), null))))
            .get(0)
            .id();
    JsonNode paused = api.post("/api/v1/task-types/noop/pause", null).json();
    assertThat(paused.get("paused").asBoolean()).isTrue();
    assertThat(runNoop().claimed()).as("a paused type's due task").isZero();
    assertThat(server.drover.task(id).orElseThrow().status())
        .isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);

    JsonNode resumed = api.post("/api/v1/task-types/noop/resume", null).json();
    assertThat(resumed.get("paused").asBoolean()).isFalse();
    assertThat(runNoop().claimed()).isEqualTo(1);
    assertThat(server.drover.task(id).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(api.post("/api/v1/task-types/nope/pause", null).status()).isEqualTo(404);
  }

  /** Runs the {@code noop} tasks that a runner claims, until it is idle. */
  private RunnerStats runNoop() throws InterruptedException {
    return server
        .drover
        .runner(server.runsDir)
        .options(RunnerOptions.defaults(server.runsDir).withTypes(Set.of("noop")))
        .handlers(Map.of("noop", ctx -> Outcome.eventful()))
        .build()
        .run();
  }

  @Test
  void aTreeShowsItsFamilyCountsAndChildrenAPageAtATime() throws Exception {
    long parent = tree(12);
    List<Long> children = childIds(parent);
    List<Long> seen = new ArrayList<>();
    String next = "";
    int pages = 0;
    JsonNode first = null;
    do {
      JsonNode page = api.get("/api/v1/tasks/" + parent + "/tree?limit=5" + next).json();
      first = first == null ? page : first;
      page.get("items").forEach(t -> seen.add(t.get("id").asLong()));
      next = page.get("next").isNull() ? null : "&after=" + page.get("next").asLong();
      pages++;
    } while (next != null);
    assertThat(seen).isEqualTo(children).hasSize(12);
    assertThat(pages).isEqualTo(3);

    assertThat(first.at("/task/id").asLong()).isEqualTo(parent);
    assertThat(first.at("/task/status").asText()).isEqualTo("waiting_for_children");
    assertThat(first.at("/task/family/children_total").asInt()).isEqualTo(12);
    assertThat(first.at("/task/family/parent").isNull()).isTrue();
    assertThat(first.at("/counts/waiting_for_children").asInt()).isEqualTo(1);
    assertThat(first.at("/counts/next_run_not_scheduled").asInt()).isEqualTo(12);
    assertThat(first.get("items").get(0).at("/family/parent").asLong()).isEqualTo(parent);

    // A child's tree: its family names the root, the counts are the whole tree's.
    long child = children.get(0);
    JsonNode leaf = api.get("/api/v1/tasks/" + child + "/tree").json();
    assertThat(leaf.at("/task/family/root").asLong()).isEqualTo(parent);
    assertThat(leaf.at("/counts/next_run_not_scheduled").asInt()).isEqualTo(12);
    assertThat(leaf.get("items")).isEmpty();
    assertThat(leaf.get("next").isNull()).isTrue();
    assertThat(api.get("/api/v1/tasks/999999/tree").status()).isEqualTo(404);
  }

  /**
   * A {@code crawl} task whose run spawned {@code n} waiting {@code page} tasks, run by a real
   * runner; returns the crawl task's id (it waits for its children).
   */
  private long tree(int n) throws InterruptedException {
    Drover d = server.drover;
    d.taskTypeCreate(TaskType.builder("crawl").childrenRule(ChildrenRule.ALL_SUCCEEDED).build());
    d.taskTypeCreate(TaskType.builder("page").build());
    NewTask crawl = NewTask.oneshot("crawl", TaskArguments.of(List.of("/"), null));
    long parent = d.taskCreate(List.of(crawl)).get(0).id();
    List<NewTask> pages =
        IntStream.range(0, n)
            .mapToObj(i -> NewTask.oneshot("page", TaskArguments.of(List.of(i), null)))
            .toList();
    d.runner(server.runsDir)
        .options(RunnerOptions.defaults(server.runsDir).withTypes(Set.of("crawl")))
        .handlers(Map.of("crawl", ctx -> Outcome.eventful().spawning(pages)))
        .build()
        .run();
    assertThat(d.task(parent).orElseThrow().status()).isEqualTo(TaskStatus.WAITING_FOR_CHILDREN);
    return parent;
  }

  private List<Long> childIds(long parent) {
    return server.drover.taskChildren(parent, 0, 1000).stream().map(Task::id).toList();
  }

  private static JsonNode row(JsonNode status, String type) {
    for (JsonNode r : status) {
      if (r.get("type").asText().equals(type)) {
        return r;
      }
    }
    throw new AssertionError("no row of " + type + " in " + status);
  }

  /** {@code node} as the CLI prints it and a client reads it back. */
  private static JsonNode cli(JsonNode node) {
    return DroverCli.parseJson(JsonViews.compact(node));
  }
}
