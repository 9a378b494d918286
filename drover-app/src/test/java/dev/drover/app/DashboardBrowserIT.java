package dev.drover.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import dev.drover.testing.Wait;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard as a person sees it in Chromium, served by the real {@code drover serve} (the jar,
 * a SQLite data dir, its runner): the counts table, the counts and the event log following a real
 * workload live over server-sent events, and the overview's Task form leading to a task's page.
 * Along the way it takes the screenshot of the README: always into {@code target/screenshots/}, and
 * into {@code docs/images/} as well with {@code -Ddrover.screenshots=true}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the overview's picture shows its types only
class DashboardBrowserIT {
  /** Long enough for a loaded CI machine to run a few {@code true}s; a bound, not a pause. */
  private static final LocatorAssertions.HasTextOptions LIVE =
      new LocatorAssertions.HasTextOptions().setTimeout(20_000);

  @RegisterExtension static final Browser browser = new Browser();
  @TempDir static Path tmp;
  static RunningServe serve;

  @BeforeAll
  static void startServe() throws InterruptedException {
    // The crawl still running at the end is released at once instead of awaited.
    serve = RunningServe.start(tmp, "--grace", "0s");
  }

  @AfterAll
  static void stopServe() throws InterruptedException {
    if (serve != null) { // null when the browser failed to start first
      serve.close();
    }
  }

  @Test
  @Order(1)
  void overviewFollowsAWorkloadLiveAndLeadsToATaskPage() throws IOException {
    serve.post("/api/v1/task-types", type("backup", "Nightly backup", "true"));
    serve.post("/api/v1/task-types", type("checksum", "Verify a mirror", "true"));
    serve.post("/api/v1/task-types", type("report", "Send the weekly report", "false"));
    serve.post(
        "/api/v1/task-types",
        "{\"name\": \"fetch\", \"default_interval\": \"1h\", \"command\": [\"true\"]}");
    serve.post(
        "/api/v1/task-types",
        "{\"name\": \"crawl\", \"max_workers\": 1, \"command\": [\"sleep\", \"60\"]}");
    String tomorrow = Instant.now().plus(1, ChronoUnit.DAYS).toString();
    JsonNode later = serve.post("/api/v1/tasks/batch", tasks("backup", 4, tomorrow));
    serve.post("/api/v1/tasks/" + later.get(0).get("id").asLong() + "/disable", "{}");

    try (BrowserTab tab = browser.open(serve.url("/"))) {
      Page page = tab.page();
      assertThat(page).hasTitle("Drover");
      assertThat(cells(page, "backup"))
          .hasText(new String[] {"backup", "0", "3", "0", "0", "0", "0", "0", "1", "4"});
      // The event log shows the runner's start; no task has run yet, so no worker either.
      assertThat(events(page, "runner_started").first()).isVisible();
      assertThat(events(page, "worker_spawned")).hasCount(0);

      // Work added through the API runs, and the page follows without a reload.
      serve.post("/api/v1/tasks/batch", tasks("checksum", 6, null));
      JsonNode failing = serve.post("/api/v1/tasks/batch", tasks("report", 2, null));
      serve.post("/api/v1/tasks/batch", tasks("fetch", 3, null).replace("oneshot", "recurring"));
      serve.post("/api/v1/tasks/batch", tasks("crawl", 3, null));
      assertThat(cells(page, "checksum"))
          .hasText(new String[] {"checksum", "0", "0", "0", "0", "0", "6", "0", "0", "6"}, LIVE);
      assertThat(cells(page, "report"))
          .hasText(new String[] {"report", "0", "0", "0", "0", "0", "0", "2", "0", "2"}, LIVE);
      // Recurring tasks run, then wait for their next run; one crawl at a time runs, two are due.
      assertThat(cells(page, "fetch"))
          .hasText(new String[] {"fetch", "0", "3", "0", "0", "0", "0", "0", "0", "3"}, LIVE);
      assertThat(cells(page, "crawl"))
          .hasText(new String[] {"crawl", "2", "0", "1", "0", "0", "0", "0", "0", "3"}, LIVE);
      assertThat(cells(page, "backup"))
          .hasText(new String[] {"backup", "0", "3", "0", "0", "0", "0", "0", "1", "4"});
      assertThat(page.locator("#live")).hasText(Pattern.compile("^live: updated "));
      assertThat(events(page, "worker_spawned").first()).isVisible();
      Screenshots.save(page, "dashboard.png", false);

      // A new event comes in at the top of the log.
      serve.post("/api/v1/tasks/" + later.get(1).get("id").asLong() + "/pause", "{}");
      assertThat(events(page, "operator_control").first()).isVisible();
      List<String> lines = page.locator("#events div").allTextContents();
      assertThat(indexOf(lines, "operator_control")).isLessThan(indexOf(lines, "runner_started"));

      // The Task form opens the page of a task: its fields and its failed run with the error.
      long id = failing.get(1).get("id").asLong();
      page.getByLabel("Task").fill(Long.toString(id));
      page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Show")).click();
      assertThat(page).hasURL(serve.url("/tasks/" + id));
      assertThat(page.locator("h1")).hasText("Task " + id);
      assertThat(field(page, "type")).hasText("report");
      assertThat(page.locator("#status")).hasText("failed");
      assertThat(page.locator("#status")).hasClass("failed");
      Locator runs = page.locator("#runs tr");
      assertThat(runs).hasCount(2);
      assertThat(runs.nth(1).locator("td").nth(1)).hasText("failed");
      assertThat(runs.nth(1).locator("td.err")).hasText(Pattern.compile("exit code 1"));
      assertThat(page.locator("#last-error")).hasText(Pattern.compile("exit code 1"));
      tab.assertNoErrors();
    }
  }

  @Test
  @Order(2)
  void aTaskPageWithItsTreeAndControls() throws IOException, InterruptedException {
    // A site crawl spawns two pages and a check; the check fails, so the crawl is sealed failed.
    serve.post("/api/v1/task-types", type("page", "Archive a page", "true"));
    serve.post("/api/v1/task-types", type("check", "Check the links", "false"));
    serve.post(
        "/api/v1/task-types",
        "{\"name\": \"site\", \"description\": \"Crawl a site\", \"command\": [\"sh\","
            + " \"-c\", \"echo crawling {args.0}; for p in index about; do echo"
            + " '{{\\\"spawn\\\": {{\\\"type\\\": \\\"page\\\", \\\"args\\\":"
            + " [\\\"'$p'\\\"]}}}}'; done; echo '{{\\\"spawn\\\": {{\\\"type\\\":"
            + " \\\"check\\\", \\\"args\\\": [\\\"links\\\"]}}}}'\"]}");
    long site =
        serve
            .post(
                "/api/v1/tasks",
                "{\"policy\": \"oneshot\", \"type\": \"site\", \"args\":"
                    + " [\"https://example.org\"]}")
            .get("id")
            .asLong();
    Wait.until(
        "the crawl to be sealed",
        Duration.ofSeconds(30),
        () -> serve.get("/api/v1/tasks/" + site).get("status").asText().equals("disabled"));

    try (BrowserTab tab = browser.open(serve.url("/"))) {
      Page page = tab.page();
      DashboardLogin.logIn(page, serve, "/tasks/" + site);
      assertThat(page.locator("#status")).hasText("failed");
      assertThat(page.locator("#tree"))
          .hasText(Pattern.compile("children: 3 \\(0 pending, 1 failed\\)"));
      assertThat(page.locator("#children tr")).hasCount(4);
      assertThat(page.locator("#controls button"))
          .hasText(new String[] {"Pause", "Resume", "Cancel", "Retry", "Delete"});
      assertThat(page.locator("#controls input[name=tree]")).hasCount(4);
      assertThat(page.locator("#stdout")).hasText(Pattern.compile("^crawling https://example.org"));
      Screenshots.save(page, "dashboard-task.png", true);
      tab.assertNoErrors();
    }
  }

  private static String type(String name, String description, String command) {
    return "{\"name\": \""
        + name
        + "\", \"description\": \""
        + description
        + "\", \"num_retries\": 0, \"command\": [\""
        + command
        + "\"]}";
  }

  /** A batch of {@code n} oneshot tasks of {@code type}, due at {@code nextRun} (null: now). */
  private static String tasks(String type, int n, String nextRun) {
    StringBuilder json = new StringBuilder("{\"tasks\": [");
    for (int i = 0; i < n; i++) {
      json.append(i == 0 ? "" : ", ")
          .append("{\"type\": \"")
          .append(type)
          .append("\", \"policy\": \"oneshot\", \"args\": [\"")
          .append(type + "-" + i) // tasks alike would be one task
          .append("\"]")
          .append(nextRun == null ? "" : ", \"next_run\": \"" + nextRun + "\"")
          .append("}");
    }
    return json.append("]}").toString();
  }

  /** The cells of the counts table's row of {@code type}. */
  private static Locator cells(Page page, String type) {
    return page.locator("#counts tbody tr")
        .filter(
            new Locator.FilterOptions()
                .setHas(
                    page.locator(
                        "td:first-child", new Page.LocatorOptions().setHasText(exactly(type)))))
        .locator("td");
  }

  /** Text that is exactly {@code word} (a plain word: the pattern runs as a JavaScript regex). */
  private static Pattern exactly(String word) {
    return Pattern.compile("^" + word + "$");
  }

  private static int indexOf(List<String> lines, String kind) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(kind)) {
        return i;
      }
    }
    throw new AssertionError("no " + kind + " in " + lines);
  }

  private static Locator events(Page page, String kind) {
    return page.locator("#events div", new Page.LocatorOptions().setHasText(kind));
  }

  /** The value cell of a task page's field {@code name}. */
  private static Locator field(Page page, String name) {
    return page.locator(
            "tr",
            new Page.LocatorOptions()
                .setHas(page.locator("th", new Page.LocatorOptions().setHasText(exactly(name)))))
        .locator("td");
  }
}
