package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.model.Event;
import dev.drover.model.EventKind;
import dev.drover.model.NewTask;
import dev.drover.model.RunHistory;
import dev.drover.model.RunnerRecord;
import dev.drover.model.RunnerState;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Claim;
import dev.drover.store.Completion;
import dev.drover.store.StoreLocation;
import dev.drover.testing.Databases;
import dev.drover.testing.Passes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's pages and controls over plain HTTP against a real server and store: each page
 * shows what the store holds, escaped; a logged-in browser's forms change the store and say so;
 * every cross-site or unauthenticated form is refused with nothing changed. One subclass per
 * database.
 */
abstract class DashboardPagesIT {
  private static final List<String> PAGES =
      List.of("/", "/task-types", "/tasks", "/tasks/4", "/runners", "/events", "/frontier");

  @TempDir Path tmp;
  private final Databases databases;
  private TestServer server;
  private Drover drover;
  private FormClient browser;
  private Path runsDir;

  DashboardPagesIT(Databases databases) {
    this.databases = databases;
  }

  @BeforeEach
  void start() {
    StoreLocation location = databases.fresh();
    Fixtures.seed(location, tmp);
    runsDir = tmp.resolve("runs");
    server = TestServer.on(location, runsDir);
    drover = server.drover;
    browser = new FormClient(server.server.port());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void everyPageHasTheNavigationAndShowsNoControlsWithoutLogin() {
    for (String path : PAGES) {
      FormClient.Reply page = browser.get(path);
      assertThat(page.status()).as(path).isEqualTo(200);
      assertThat(page.headers().get("content-type"))
          .anySatisfy(t -> assertThat(t).startsWith("text/html"));
      assertThat(page.body())
          .as(path)
          .contains(
              "<a href=\"/\"",
              "<a href=\"/task-types\"",
              "<a href=\"/tasks\"",
              "<a href=\"/runners\"",
              "<a href=\"/events\"",
              "<a href=\"/frontier\"",
              "Log in</a>");
      assertThat(page.csrf()).as(path).isNull();
      assertThat(page.body()).as(path).doesNotContain("method=\"post\"");
    }
    assertThat(browser.get("/login").body()).contains("<form method=\"post\" action=\"/login\">");
  }

  @Test
  void theTaskTypesPageShowsCountsSchedulesAndWhichArePaused() {
    drover.taskTypePause("check", true);
    String page = browser.get("/task-types").body();
    String loadGit = row(page, "type-load-git");
    String check = row(page, "type-check");
    long waiting = count("load-git", TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(waiting).isEqualTo(2);
    assertThat(loadGit)
        .contains("<td>1h (10m..1d)</td>")
        .contains("/tasks?type=load-git&amp;status=waiting\">" + waiting + "</a>")
        .contains("<td class=\"state\">active</td>");
    assertThat(check)
        .contains("<td>oneshot only</td>")
        .contains("/tasks?type=check&amp;status=done\">1</a>")
        .contains("<td class=\"state\">paused</td>");
  }

  @Test
  void theSearchPagesByKeysetAndTellsAFailedTaskFromADisabledOne() {
    List<NewTask> more = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      more.add(NewTask.recurring("load-git", TaskArguments.of(null, Map.of("path", "/p" + i))));
    }
    drover.taskCreate(more);
    List<Long> all = drover.taskSearch(TaskQuery.all()).stream().map(Task::id).sorted().toList();
    List<Long> seen = new ArrayList<>();
    String next = "/tasks?limit=7";
    int pages = 0;
    while (next != null) {
      String page = browser.get(next).body();
      seen.addAll(taskLinks(table(page, "tasks")));
      Matcher m = Pattern.compile("<a id=\"next\" href=\"([^\"]+)\"").matcher(page);
      next = m.find() ? m.group(1).replace("&amp;", "&") : null;
      pages++;
    }
    assertThat(seen).isEqualTo(all);
    assertThat(pages).isEqualTo((all.size() + 6) / 7);

    String done = browser.get("/tasks?type=check&status=done").body();
    assertThat(taskLinks(table(done, "tasks"))).containsExactly(4L);
    assertThat(done).contains("<option selected>done</option>");

    List<Task> created =
        drover.taskCreate(
            List.of(
                NewTask.oneshot("check", TaskArguments.of(List.of("/fails"), null)),
                NewTask.oneshot("check", TaskArguments.of(List.of("/cancelled"), null))));
    long failed = created.get(0).id();
    long cancelled = created.get(1).id();
    drover.taskCancel(List.of(cancelled), false);
    Fixtures.runToEnd(drover, "check", TaskRunStatus.PERMFAILED);
    assertThat(drover.task(failed).orElseThrow().status()).isEqualTo(TaskStatus.DISABLED);
    assertThat(drover.task(cancelled).orElseThrow().status()).isEqualTo(TaskStatus.DISABLED);

    String disabled = table(browser.get("/tasks?type=check&status=disabled").body(), "tasks");
    assertThat(taskLinks(disabled)).containsExactly(failed, cancelled);
    assertThat(disabled)
        .contains(
            "/tasks/"
                + failed
                + "\">"
                + failed
                + "</a></td><td>check</td>"
                + "<td class=\"failed\">failed</td>")
        .contains(
            "/tasks/"
                + cancelled
                + "\">"
                + cancelled
                + "</a></td><td>check</td>"
                + "<td class=\"\">disabled</td>");
    assertThat(browser.get("/tasks/" + failed).body())
        .contains("<b id=\"status\" class=\"failed\">failed</b>", "failed for good");
    assertThat(browser.get("/tasks/" + cancelled).body())
        .contains("<b id=\"status\" class=\"\">disabled</b>", "by an operator");
    assertThat(browser.get("/tasks?status=nope").status()).isEqualTo(400);
  }

  @Test
  void aTaskPageShowsItsRunsLastErrorAndTheEscapedTailOfItsOutput() throws IOException {
    TaskRun done = drover.taskRuns(List.of(4L), null, 1).get(0);
    Path dir = Files.createDirectories(runsDir.resolve("check").resolve(done.backendId()));
    StringBuilder out = new StringBuilder();
    IntStream.rangeClosed(1, 149).forEach(i -> out.append("line ").append(i).append('\n'));
    out.append("<script>alert(1)</script>\n");
    Files.writeString(dir.resolve("stdout.log"), out);
    Files.writeString(dir.resolve("stderr.log"), "oops & <b>bold</b>\n");

    String page = browser.get("/tasks/4").body();
    assertThat(table(page, "runs")).contains("<td>eventful</td>");
    String stdout = between(page, "<pre class=\"out\" id=\"stdout\">", "</pre>");
    assertThat(stdout.split("\n")).hasSize(100);
    assertThat(stdout)
        .startsWith("line 51\n")
        .endsWith("&lt;script&gt;alert(1)&lt;/script&gt;\n")
        .doesNotContain("line 50\n");
    assertThat(page)
        .doesNotContain("<script>alert(1)")
        .contains("oops &amp; &lt;b&gt;bold&lt;/b&gt;");

    long id =
        drover
            .taskCreate(List.of(NewTask.oneshot("check", TaskArguments.of(List.of("/e"), null))))
            .get(0)
            .id();
    TaskRun run = drover.taskRunSchedule(List.of(id)).get(0);
    drover.taskRunStart(run.backendId(), null);
    ObjectNode meta = Json.object();
    meta.putObject("result").put("error", "boom <x> & more");
    drover.taskRunEnd(run.backendId(), TaskRunStatus.FAILED, meta);
    String failedPage = browser.get("/tasks/" + id).body();
    assertThat(between(failedPage, "id=\"last-error\">", "</pre>"))
        .isEqualTo("boom &lt;x&gt; &amp; more");
    assertThat(table(failedPage, "runs")).contains("<td>failed</td>");
    assertThat(failedPage).doesNotContain("<x>");
  }

  @Test
  void aTaskPageSaysWhenItsTypeKeepsOnlyFailedRuns() {
    assertThat(browser.get("/tasks/4").body()).doesNotContain("id=\"run-history\"");
    drover.taskTypeCreate(
        TaskType.builder("light").command(List.of("true")).runHistory(RunHistory.FAILURES).build());
    long id =
        drover
            .taskCreate(List.of(NewTask.oneshot("light", TaskArguments.of(List.of(), null))))
            .get(0)
            .id();
    assertThat(browser.get("/tasks/" + id).body())
        .contains("<p id=\"run-history\">Task type light keeps only the runs that did not succeed");
  }

  @Test
  void aTaskPageShowsItsTreeWithChildrenAPageAtATime() {
    List<Long> tree = tree(51);
    long parent = tree.get(0);
    String page = browser.get("/tasks/" + parent).body();
    assertThat(page).contains("children: 51 (51 pending, 0 failed)");
    String counts = table(page, "tree-counts");
    assertThat(counts).contains("<th>awaiting</th>", "<th>waiting</th>");
    Map<TaskStatus, Long> stored = drover.treeCounts(parent);
    assertThat(stored.get(TaskStatus.NEXT_RUN_NOT_SCHEDULED)).isEqualTo(51);
    assertThat(counts).contains("<td class=\"n\">51</td>", "<td class=\"n\">1</td>");
    List<Long> first = taskLinks(table(page, "children"));
    assertThat(first).isEqualTo(tree.subList(1, 51));
    Matcher next = Pattern.compile("<a id=\"children-next\" href=\"([^\"]+)\"").matcher(page);
    assertThat(next.find()).isTrue();
    String second = browser.get(next.group(1)).body();
    assertThat(taskLinks(table(second, "children"))).containsExactly(tree.get(51));
    assertThat(second).doesNotContain("children-next");

    String child = browser.get("/tasks/" + tree.get(1)).body();
    assertThat(between(child, "<p id=\"tree\">", "</p>"))
        .contains("parent: <a href=\"/tasks/" + parent + "\">" + parent + "</a>");
  }

  @Test
  void theRunnersPageShowsEachRunnerAndWhatItRunsNow() {
    Instant now = drover.now();
    drover
        .store()
        .runners()
        .register(
            new RunnerRecord(
                "runner-a",
                "host-a",
                4242,
                null,
                null,
                RunnerState.ACTIVE,
                now.minusSeconds(600),
                now.minusSeconds(5),
                null,
                null));
    TaskType loadGit = drover.taskType("load-git").orElseThrow();
    List<Claim> claimed =
        Passes.claimStarted(drover.store(), loadGit, "runner-a", now, Duration.ofMinutes(5), 1);
    long running = claimed.get(0).task().id();
    assertThat(drover.taskRunOpen(10))
        .singleElement()
        .satisfies(r -> assertThat(r.owner()).isEqualTo("runner-a"));

    String page = browser.get("/runners").body();
    String runners = table(page, "runners");
    assertThat(runners).contains("<td>runner-a</td><td>host-a</td><td class=\"n\">4242</td>");
    assertThat(runners).contains("<td>active</td>");
    assertThat(page).contains("<h3>runner-a</h3>");
    String open = between(page, "<h3>runner-a</h3>", "</table>");
    assertThat(taskLinks(open)).containsExactly(running);
    assertThat(open).contains("<td>load-git</td>", "<td>started</td>");
  }

  @Test
  void theEventsPageShowsTheLogNewestFirstAndFiltersByKind() {
    Instant now = drover.now();
    ObjectNode detail = Json.object();
    detail.put("note", "<i>x</i>");
    drover
        .store()
        .eventAppend(List.of(Event.of(now, EventKind.OPERATOR_CONTROL, null, 4L, detail)));
    drover
        .store()
        .eventAppend(List.of(Event.of(now, EventKind.RUNNER_STARTED, "runner-b", null, null)));
    List<Event> stored = drover.store().eventTail(2);
    long newest = Math.max(stored.get(0).id(), stored.get(1).id());

    String page = browser.get("/events").body();
    String rows = table(page, "events");
    assertThat(rows.indexOf("<td>runner_started</td>"))
        .isPositive()
        .isLessThan(rows.indexOf("<td>operator_control</td>"));
    assertThat(rows).contains("&lt;i&gt;x&lt;/i&gt;").doesNotContain("<i>x</i>");
    assertThat(rows).contains("<a href=\"/tasks/4\">4</a>");
    assertThat(page)
        .contains("data-after=\"" + newest + "\"")
        .contains("new EventSource('/api/v1/events/stream?after='");

    String filtered = table(browser.get("/events?kind=runner_started").body(), "events");
    assertThat(filtered).contains("<td>runner-b</td>").doesNotContain("<td>operator_control</td>");
    assertThat(browser.get("/events?kind=nope").status()).isEqualTo(400);
  }

  @Test
  void theFrontierPageShowsListersMetricsAndOriginsAPageAtATime() {
    Instant now = drover.now();
    Lister lister = drover.frontier().listerGetOrCreate("github", "main", null, now);
    List<ListedOrigin> origins = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      origins.add(ListedOrigin.of(lister.id(), "https://example.org/r" + i, "git"));
    }
    drover.frontier().originRecord(origins, now);
    drover.frontier().metricsUpdate(lister.id(), now);

    String page = browser.get("/frontier").body();
    assertThat(table(page, "listers")).contains("<td>github</td><td>main</td>");
    assertThat(table(page, "metrics")).contains("<td>git</td><td class=\"n\">60</td>");
    List<String> seen = new ArrayList<>(urls(table(page, "origins")));
    assertThat(seen).hasSize(50);
    Matcher next = Pattern.compile("<a id=\"next\" href=\"([^\"]+)\"").matcher(page);
    assertThat(next.find()).isTrue();
    String second = browser.get(next.group(1).replace("&amp;", "&")).body();
    seen.addAll(urls(table(second, "origins")));
    assertThat(seen)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(origins.stream().map(ListedOrigin::url).toList());
    assertThat(second).doesNotContain("id=\"next\"");
  }

  @Test
  void aLoggedInBrowserControlsTasksAndTypesAndIsToldWhatHappened() throws IOException {
    FormClient.Reply wrong = browser.login("not-the-token");
    assertThat(wrong.status()).isEqualTo(403);
    assertThat(wrong.body()).contains("The token is wrong.");
    assertThat(browser.cookie()).isNull();

    FormClient.Reply in = browser.login(ApiClient.TOKEN);
    assertThat(in.status()).isEqualTo(302);
    assertThat(in.location()).isEqualTo("/");
    assertThat(in.setCookie())
        .startsWith("drover_session=")
        .contains("HttpOnly", "SameSite=Strict", "Path=/")
        .doesNotContain(ApiClient.TOKEN);
    assertThat(browser.get("/").body()).contains("id=\"flash\">logged in</p>");

    String csrf = browser.get("/tasks/1").csrf();
    assertThat(csrf).isNotBlank();
    assertControl("/tasks/1/pause", csrf, "paused 1 task");
    assertThat(status(1)).isEqualTo(TaskStatus.PAUSED);
    assertThat(browser.get("/tasks/1").body()).doesNotContain("id=\"flash\"");
    assertControl("/tasks/1/resume", csrf, "resumed 1 task");
    assertThat(status(1)).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertControl("/tasks/1/cancel", csrf, "cancelled 1 task");
    assertThat(status(1)).isEqualTo(TaskStatus.DISABLED);
    assertThat(drover.taskFamily(1).orElseThrow().disabledByOperator()).isTrue();
    assertControl("/tasks/1/retry", csrf, "retried 1 task");
    assertThat(status(1)).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertControl("/tasks/1/resume", csrf, "resumed 0 tasks (only paused tasks resume)");

    List<Long> tree = tree(2);
    FormClient.Reply paused =
        browser.post("/tasks/" + tree.get(0) + "/pause", FormClient.form(csrf, "tree", "on"));
    assertThat(paused.status()).isEqualTo(302);
    assertThat(status(tree.get(1))).isEqualTo(TaskStatus.PAUSED);
    assertThat(status(tree.get(2))).isEqualTo(TaskStatus.PAUSED);

    FormClient.Reply type = browser.post("/task-types/load-git/pause", FormClient.form(csrf));
    assertThat(type.status()).isEqualTo(302);
    assertThat(type.location()).isEqualTo("/task-types");
    assertThat(drover.taskTypesPaused()).containsExactly("load-git");
    String types = browser.get("/task-types").body();
    assertThat(types).contains("id=\"flash\">paused task type load-git</p>");
    assertThat(row(types, "type-load-git")).contains("action=\"/task-types/load-git/resume\"");
    browser.post("/task-types/load-git/resume", FormClient.form(csrf));
    assertThat(drover.taskTypesPaused()).isEmpty();

    TaskRun run = drover.taskRuns(List.of(4L), null, 1).get(0);
    Path dir = Files.createDirectories(runsDir.resolve("check").resolve(run.backendId()));
    Files.writeString(dir.resolve("stdout.log"), "out\n");
    FormClient.Reply deleted = browser.post("/tasks/4/delete", FormClient.form(csrf));
    assertThat(deleted.location()).isEqualTo("/tasks");
    assertThat(drover.task(4)).isEmpty();
    assertThat(dir).doesNotExist();
    assertThat(browser.get("/tasks").body())
        .contains("id=\"flash\">deleted 1 task, 1 run and 1 run directory</p>");
    assertThat(browser.post("/tasks/999/pause", FormClient.form(csrf)).status()).isEqualTo(404);

    String cookie = browser.cookie();
    assertThat(browser.post("/logout", FormClient.form(csrf)).status()).isEqualTo(302);
    assertThat(browser.cookie()).isNull();
    browser.cookie(cookie); // the old session's cookie, kept by an attacker
    List<String> before = server.snapshot();
    assertThat(browser.post("/tasks/1/pause", FormClient.form(csrf)).status()).isEqualTo(403);
    assertThat(server.snapshot()).isEqualTo(before);
  }

  @Test
  void formsWithoutASessionOrFromAnotherSiteAreRefusedAndChangeNothing() {
    List<String> before = server.snapshot();
    FormClient.Reply anonymous = browser.post("/tasks/1/pause", Map.of("csrf", "x"));
    assertThat(anonymous.status()).isEqualTo(403);
    assertThat(anonymous.body()).contains("log in");
    // A browser (Accept: text/html) is shown a page with the way to log in, not the API's JSON.
    Map<String, String> html = Map.of("Origin", browser.origin(), "Accept", "text/html");
    FormClient.Reply page = browser.post("/tasks/1/pause", Map.of("csrf", "x"), html);
    assertThat(page.status()).isEqualTo(403);
    assertThat(page.body()).contains("<h1>Error 403</h1>", "<a href=\"/login\">Log in</a>");
    assertThat(browser.login("wrong").status()).isEqualTo(403);

    assertThat(browser.login(ApiClient.TOKEN).status()).isEqualTo(302);
    String csrf = browser.get("/tasks/1").csrf();
    FormClient other = new FormClient(server.server.port());
    other.login(ApiClient.TOKEN);
    String otherCsrf = other.get("/tasks/1").csrf();
    assertThat(otherCsrf).isNotEqualTo(csrf);

    String pause = "/tasks/1/pause";
    assertThat(browser.post(pause, Map.of()).status()).isEqualTo(403);
    assertThat(browser.post(pause, FormClient.form("wrong")).status()).isEqualTo(403);
    assertThat(browser.post(pause, FormClient.form(otherCsrf)).status()).isEqualTo(403);
    Map<String, String> evil = Map.of("Origin", "http://evil.example");
    assertThat(browser.post(pause, FormClient.form(csrf), evil).status()).isEqualTo(403);
    Map<String, String> evilPort = Map.of("Origin", "http://127.0.0.1:1");
    assertThat(browser.post(pause, FormClient.form(csrf), evilPort).status()).isEqualTo(403);
    Map<String, String> referer = Map.of("Referer", "http://evil.example/page");
    assertThat(browser.post(pause, FormClient.form(csrf), referer).status()).isEqualTo(403);
    Map<String, String> nullOrigin = Map.of("Origin", "null");
    assertThat(browser.post(pause, FormClient.form(csrf), nullOrigin).status()).isEqualTo(403);
    assertThat(browser.post("/task-types/load-git/pause", FormClient.form(csrf), evil).status())
        .isEqualTo(403);
    assertThat(browser.post("/tasks/2/delete", FormClient.form("wrong")).status()).isEqualTo(403);
    // A login from another site's page is refused too, and gives no session.
    FormClient third = new FormClient(server.server.port());
    assertThat(third.post("/login", Map.of("token", ApiClient.TOKEN), evil).status())
        .isEqualTo(403);
    assertThat(third.cookie()).isNull();
    // The session opens no door to the API, which still wants the bearer token.
    assertThat(server.client.send("/api/v1/tasks/1/disable", "POST", null, null, null).status())
        .isEqualTo(401);
    assertThat(server.snapshot()).isEqualTo(before);

    // The same form from this site's own page, without Origin, with the right token: it works.
    assertThat(browser.post(pause, FormClient.form(csrf), Map.of()).status()).isEqualTo(302);
    assertThat(status(1)).isEqualTo(TaskStatus.PAUSED);
  }

  @Test
  void everyValueFromTheStoreIsEscaped() {
    String evil = "<img src=x onerror=alert(1)>";
    long id =
        drover
            .taskCreate(
                List.of(
                    NewTask.recurring("load-git", TaskArguments.of(null, Map.of("path", evil)))))
            .get(0)
            .id();
    for (String path : List.of("/tasks?type=load-git", "/tasks/" + id)) {
      String page = browser.get(path).body();
      assertThat(page).as(path).doesNotContain(evil).contains("&lt;img src=x onerror=alert(1)&gt;");
    }
    assertThat(browser.get("/login?next=%22%3E%3Cscript%3E").body()).doesNotContain("\"><script>");
  }

  private void assertControl(String path, String csrf, String flash) {
    FormClient.Reply r = browser.post(path, FormClient.form(csrf));
    assertThat(r.status()).as(path).isEqualTo(302);
    assertThat(r.location()).isEqualTo(path.substring(0, path.lastIndexOf('/')));
    assertThat(browser.get(r.location()).body()).contains("id=\"flash\">" + flash + "</p>");
  }

  private TaskStatus status(long id) {
    return drover.task(id).orElseThrow().status();
  }

  private long count(String type, TaskStatus status) {
    return drover.statusCounts().stream()
        .filter(c -> c.type().equals(type) && c.status() == status)
        .mapToLong(StatusCount::count)
        .sum();
  }

  /** A crawl task whose run spawned {@code children} page tasks: {parent, children...}. */
  private List<Long> tree(int children) {
    drover.taskTypeCreate(TaskType.builder("crawl").build());
    drover.taskTypeCreate(TaskType.builder("page").build());
    long parent =
        drover
            .taskCreate(List.of(NewTask.oneshot("crawl", TaskArguments.of(List.of(0), null))))
            .get(0)
            .id();
    TaskType crawl = drover.taskType("crawl").orElseThrow();
    Instant now = drover.now(); // after the parent's creation, so it is due
    Claim c = Passes.claim(drover.store(), crawl, "r", now, Duration.ofMinutes(1), 1).get(0);
    List<NewTask> spawns = new ArrayList<>();
    for (int i = 1; i <= children; i++) {
      spawns.add(NewTask.oneshot("page", TaskArguments.of(List.of(i), null)));
    }
    Passes.complete(
        drover.store(),
        "r",
        List.of(new Completion(c.lease(), TaskRunStatus.EVENTFUL, Json.object(), now, c, spawns)),
        now);
    List<Long> ids = new ArrayList<>(List.of(parent));
    drover.taskChildren(parent, 0, children).forEach(t -> ids.add(t.id()));
    return ids;
  }

  private static String row(String page, String id) {
    return between(page, "<tr id=\"" + id + "\">", "</tr>");
  }

  private static String table(String page, String id) {
    return between(page, "<table id=\"" + id + "\"", "</table>");
  }

  private static String between(String text, String start, String end) {
    int i = text.indexOf(start);
    assertThat(i).as("'%s' in the page", start).isNotNegative();
    int j = text.indexOf(end, i + start.length());
    return text.substring(i + start.length(), j);
  }

  private static List<Long> taskLinks(String html) {
    List<Long> ids = new ArrayList<>();
    Matcher m = Pattern.compile("<a href=\"/tasks/(\\d+)\">").matcher(html);
    while (m.find()) {
      ids.add(Long.parseLong(m.group(1)));
    }
    return ids;
  }

  private static List<String> urls(String html) {
    List<String> urls = new ArrayList<>();
    Matcher m = Pattern.compile("<td>(https://[^<]+)</td>").matcher(html);
    while (m.find()) {
      urls.add(m.group(1));
    }
    return urls;
  }
}
