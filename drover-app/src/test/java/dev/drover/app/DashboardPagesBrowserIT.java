package dev.drover.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.drover.testing.Wait;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * The dashboard's reading pages in Chromium, against the real {@code drover serve}: the navigation,
 * task types, the task search with its filters and pages, the runners and what they run now, the
 * event log with its filter and live rows, and the crawl frontier. Ordered only so that the runners
 * page is seen idle first and busy last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardPagesBrowserIT {
  private static final Duration RUN = Duration.ofSeconds(30);

  @RegisterExtension static final Browser browser = new Browser();
  @TempDir static Path tmp;
  static RunningServe serve;

  @BeforeAll
  static void startServe() throws InterruptedException {
    serve = RunningServe.start(tmp, "--grace", "0s");
  }

  @AfterAll
  static void stopServe() throws InterruptedException {
    if (serve != null) {
      serve.close();
    }
  }

  @Test
  @Order(1)
  void runnersWhenIdle() throws InterruptedException {
    Wait.until(
        "the runner to lead",
        RUN,
        () -> serve.get("/api/v1/runners").toString().contains("\"leader\":true"));
    try (BrowserTab tab = browser.open(serve.url("/runners"))) {
      Page page = tab.page();
      assertThat(page.locator("nav a")).hasCount(7);
      assertThat(page.locator("nav a").last()).hasText("Log in");
      Locator runner = page.locator("#runners tr").nth(1).locator("td");
      assertThat(runner).hasCount(9);
      assertThat(runner.nth(1)).not().isEmpty(); // host
      assertThat(runner.nth(2)).hasText(Pattern.compile("^[0-9]+$")); // pid
      assertThat(runner.nth(3)).hasText("active");
      assertThat(runner.nth(4)).hasText("leader");
      assertThat(runner.nth(7)).hasText(Pattern.compile("^[0-9]+s$"));
      assertThat(page.locator("#idle")).hasText("no run is open");
      tab.assertNoErrors();
    }
  }

  @Test
  @Order(2)
  void taskTypesAndTheSearchFiltersAndPages() throws InterruptedException {
    serve.post("/api/v1/task-types", "{\"name\": \"alpha\", \"command\": [\"true\"]}");
    serve.post(
        "/api/v1/task-types", "{\"name\": \"beta\", \"num_retries\": 0, \"command\": [\"false\"]}");
    String tomorrow = Instant.now().plus(1, ChronoUnit.DAYS).toString();
    JsonNode alphas = serve.post("/api/v1/tasks/batch", tasks("alpha", 60, tomorrow));
    long failed =
        serve
            .post("/api/v1/tasks", "{\"policy\": \"oneshot\", \"type\": \"beta\", \"args\": [1]}")
            .get("id")
            .asLong();
    long disabled =
        serve
            .post(
                "/api/v1/tasks",
                "{\"policy\": \"oneshot\", \"type\": \"beta\", \"args\": [2], \"next_run\": \""
                    + tomorrow
                    + "\"}")
            .get("id")
            .asLong();
    serve.post("/api/v1/tasks/" + disabled + "/disable", "{}");
    Wait.until(
        "beta's first task to fail",
        RUN,
        () -> serve.get("/api/v1/tasks/" + failed).get("status").asText().equals("disabled"));

    try (BrowserTab tab = browser.open(serve.url("/task-types"))) {
      Page page = tab.page();
      Locator alpha = page.locator("#type-alpha td");
      assertThat(alpha.nth(0)).hasText("alpha");
      assertThat(alpha.nth(1)).not().isEmpty(); // its schedule
      assertThat(alpha.nth(2)).hasText("60");
      assertThat(page.locator("#type-alpha td.state")).hasText("active");
      assertThat(page.locator("#type-beta td").nth(5)).hasText("1"); // failed for good
      assertThat(page.locator("#type-beta td").nth(6)).hasText("1"); // disabled by an operator
      alpha.nth(2).locator("a").click();
      assertThat(page).hasURL(serve.url("/tasks?type=alpha&status=waiting"));

      // The first page, then the next: every alpha once.
      List<String> seen = new ArrayList<>(ids(page));
      assertThat(seen).hasSize(50);
      page.locator("#next").click();
      assertThat(page.locator("#tasks tr")).hasCount(11);
      seen.addAll(ids(page));
      assertThat(page.locator("#next")).hasCount(0);
      Set<String> all = new HashSet<>();
      alphas.forEach(t -> all.add(t.get("id").asText()));
      assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(all);

      // The form's filters: beta's disabled tasks, told apart.
      page.locator("#search select[name=type]").selectOption("beta");
      page.locator("#search select[name=status]").selectOption("disabled");
      page.locator("#search button").click();
      assertThat(page).hasURL(Pattern.compile("type=beta&status=disabled"));
      assertThat(page.locator("#tasks tr")).hasCount(3);
      assertThat(row(page, failed).locator("td.failed")).hasText("failed");
      assertThat(row(page, disabled).locator("td").nth(2)).hasText("disabled");
      assertThat(row(page, disabled).locator("td.failed")).hasCount(0);
      tab.assertNoErrors();
    }
  }

  @Test
  @Order(3)
  void eventsFilteredAndLive() {
    serve.post("/api/v1/task-types", "{\"name\": \"gamma\", \"command\": [\"true\"]}");
    String tomorrow = Instant.now().plus(1, ChronoUnit.DAYS).toString();
    JsonNode gammas = serve.post("/api/v1/tasks/batch", tasks("gamma", 2, tomorrow));
    serve.post("/api/v1/tasks/" + gammas.get(0).get("id").asLong() + "/pause", "{}");
    try (BrowserTab tab = browser.open(serve.url("/events"))) {
      Page page = tab.page();
      assertThat(page.locator("#live")).hasText(Pattern.compile("^live: (connected|updated)"));
      Locator rows = page.locator("#events tbody tr");
      long first = Long.parseLong(rows.nth(0).locator("td").first().textContent());
      long second = Long.parseLong(rows.nth(1).locator("td").first().textContent());
      assertThat(first).isGreaterThan(second);

      page.locator("#kind").selectOption("operator_control");
      page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Filter")).click();
      assertThat(page).hasURL(serve.url("/events?kind=operator_control"));
      assertThat(rows).hasCount(1);
      assertThat(page.locator("#live")).hasText(Pattern.compile("^live: (connected|updated)"));
      // A new event of the kind comes in at the top; others (a worker starting) do not show.
      serve.post("/api/v1/tasks/" + gammas.get(1).get("id").asLong() + "/pause", "{}");
      assertThat(rows).hasCount(2);
      assertThat(rows.nth(0).locator("td").nth(2)).hasText("operator_control");
      assertThat(rows.nth(0).locator("td").nth(5))
          .hasText(Pattern.compile(gammas.get(1).get("id").asText()));
      assertThat(page.locator("#events tbody td:nth-child(3)"))
          .hasText(new String[] {"operator_control", "operator_control"});
      tab.assertNoErrors();
    }
  }

  @Test
  @Order(4)
  void frontierListersMetricsAndOriginsAPageAtATime() throws IOException {
    DroverCli cli = DroverCli.jar(tmp);
    cli.run("lister", "add", "github").ok();
    cli.run("lister", "add", "gitlab").ok();
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      lines
          .append("{\"url\": \"https://github.com/o/r")
          .append(i)
          .append("\", ")
          .append("\"visit_type\": \"git\"}\n");
    }
    Path github = Files.writeString(tmp.resolve("github.jsonl"), lines);
    Path gitlab =
        Files.writeString(
            tmp.resolve("gitlab.jsonl"),
            "{\"url\": \"https://gitlab.com/x\", \"visit_type\": \"git\"}\n");
    cli.run("origin", "record", github, "--lister", "github").ok();
    cli.run("origin", "record", gitlab, "--lister", "gitlab").ok();
    cli.run("metrics", "update").ok();

    try (BrowserTab tab = browser.open(serve.url("/frontier"))) {
      Page page = tab.page();
      assertThat(page.locator("#no-listers")).hasCount(0);
      assertThat(page.locator("#listers tr")).hasCount(3);
      assertThat(page.locator("#metrics tr")).hasCount(3);
      assertThat(page.locator("#origins tr")).hasCount(51);
      List<String> seen =
          new ArrayList<>(page.locator("#origins tr td:first-child").allTextContents());
      page.locator("#next").click();
      assertThat(page.locator("#origins tr")).hasCount(12);
      seen.addAll(page.locator("#origins tr td:first-child").allTextContents());
      assertThat(page.locator("#next")).hasCount(0);
      assertThat(seen).hasSize(61).doesNotHaveDuplicates().contains("https://gitlab.com/x");

      Locator lister = page.locator("select[name=lister]");
      lister.selectOption(
          lister
              .locator("option", new Locator.LocatorOptions().setHasText("gitlab"))
              .getAttribute("value"));
      page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Show")).click();
      assertThat(page).hasURL(Pattern.compile("lister="));
      assertThat(page.locator("#origins tr td:first-child"))
          .hasText(new String[] {"https://gitlab.com/x"});
      tab.assertNoErrors();
    }
  }

  @Test
  @Order(5)
  void runnersWhileACommandRuns() throws InterruptedException {
    serve.post("/api/v1/task-types", "{\"name\": \"sleeper\", \"command\": [\"sleep\", \"60\"]}");
    long id =
        serve
            .post(
                "/api/v1/tasks", "{\"policy\": \"oneshot\", \"type\": \"sleeper\", \"args\": [1]}")
            .get("id")
            .asLong();
    Wait.until(
        "the sleeper to run",
        RUN,
        () -> serve.get("/api/v1/tasks/" + id + "/runs").toString().contains("\"started\""));
    try (BrowserTab tab = browser.open(serve.url("/runners"))) {
      Page page = tab.page();
      String runner = page.locator("#runners tr").nth(1).locator("td").first().textContent();
      assertThat(page.locator("h3")).hasText(new String[] {runner});
      Locator run = page.locator(".open-runs tr").nth(1).locator("td");
      assertThat(run.nth(0).locator("a")).hasAttribute("href", "/tasks/" + id);
      assertThat(run.nth(1)).hasText("sleeper");
      assertThat(run.nth(5)).hasText(Pattern.compile("^[0-9]+s$"));
      assertThat(page.locator("#idle")).hasCount(0);
      tab.assertNoErrors();
    }
  }

  @Test
  @Order(6)
  void overviewNavigation() {
    try (BrowserTab tab = browser.open(serve.url("/"))) {
      Page page = tab.page();
      assertThat(page.locator("nav a"))
          .hasText(
              new String[] {
                "Overview", "Task types", "Tasks", "Runners", "Events", "Frontier", "Log in"
              });
      assertThat(page.locator("nav a.here")).hasText("Overview");
      page.locator("nav a", new Page.LocatorOptions().setHasText("Frontier")).click();
      assertThat(page).hasURL(serve.url("/frontier"));
      assertThat(page.locator("nav a.here")).hasText("Frontier");
      tab.assertNoErrors();
    }
  }

  private static List<String> ids(Page page) {
    return page.locator("#tasks tr td:first-child").allTextContents();
  }

  private static Locator row(Page page, long id) {
    return page.locator("#tasks tr")
        .filter(new Locator.FilterOptions().setHas(page.locator("a[href='/tasks/" + id + "']")));
  }

  /** A batch of {@code n} oneshot tasks of {@code type}, due at {@code nextRun}. */
  private static String tasks(String type, int n, String nextRun) {
    StringBuilder json = new StringBuilder("{\"tasks\": [");
    for (int i = 0; i < n; i++) {
      json.append(i == 0 ? "" : ", ")
          .append("{\"policy\": \"oneshot\", \"type\": \"")
          .append(type)
          .append("\", \"args\": [")
          .append(i)
          .append("], \"next_run\": \"")
          .append(nextRun)
          .append("\"}");
    }
    return json.append("]}").toString();
  }
}
