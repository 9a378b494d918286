package dev.drover.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.options.AriaRole;
import com.sun.net.httpserver.HttpServer;
import dev.drover.testing.Wait;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's login and control forms in Chromium, against the real {@code drover serve}: the
 * login form (wrong token, right token, the session cookie), every control of a task's page and of
 * the task types page clicked as a person does, with what the page then shows and what the store
 * holds (through the API), the task page's output shown as text and never run, and a form posted
 * from another origin's page refused.
 */
class DashboardControlsBrowserIT {
  private static final Duration RUN = Duration.ofSeconds(30);

  @RegisterExtension static final Browser browser = new Browser();
  @TempDir static Path tmp;
  static RunningServe serve;

  @BeforeAll
  static void startServe() throws InterruptedException {
    serve = RunningServe.start(tmp, "--grace", "0s");
    // Leaves wait (their type is paused), so a test can pause, resume and cancel them.
    // (Braces in a command are doubled: single ones are placeholders.)
    serve.post("/api/v1/task-types", "{\"name\": \"leaf\", \"command\": [\"true\"]}");
    serve.post("/api/v1/task-types/leaf/pause", "{}");
    serve.post(
        "/api/v1/task-types",
        "{\"name\": \"crawl\", \"command\": [\"sh\", \"-c\", \"for i in $(seq 51); do echo"
            + " '{{\\\"spawn\\\": {{\\\"type\\\": \\\"leaf\\\", \\\"args\\\": ['$i']}}}}'; done\"]}");
    serve.post(
        "/api/v1/task-types",
        "{\"name\": \"shout\", \"num_retries\": 0, \"command\": [\"sh\", \"-c\", \"echo"
            + " '<script>console.error(1)</script>'; echo '<b>oops</b>' >&2; exit 3\"]}");
  }

  @AfterAll
  static void stopServe() throws InterruptedException {
    if (serve != null) {
      serve.close();
    }
  }

  @Test
  void logInWithTheTokenOnly() {
    long id =
        serve
            .post(
                "/api/v1/tasks",
                "{\"policy\": \"oneshot\", \"type\": \"leaf\", \"args\": [\"login\"]}")
            .get("id")
            .asLong();
    try (BrowserTab tab = browser.open(serve.url("/tasks/" + id))) {
      Page page = tab.page();
      assertThat(page.locator("#controls")).hasCount(0);
      assertThat(page.locator("h1")).hasText("Task " + id);
      page.locator("a[href='/login?next=/tasks/" + id + "']").click();
      assertThat(page).hasURL(serve.url("/login?next=/tasks/" + id));

      Response refused =
          page.waitForResponse(
              r -> r.url().equals(serve.url("/login")) && r.request().method().equals("POST"),
              () -> DashboardLogin.submit(page, "not-the-token"));
      assertThat(refused.status()).isEqualTo(403);
      assertThat(page.locator("#problem")).hasText("The token is wrong.");
      assertThat(page.context().cookies()).isEmpty();

      // The cookie as the browser received it. (Not through context().cookies(): Playwright reads
      // its SameSite with the default locale's upper case, which fails under a Turkish one.)
      Response answer =
          page.waitForResponse(
              r -> r.url().equals(serve.url("/login")) && r.request().method().equals("POST"),
              () -> DashboardLogin.submit(page, serve.token()));
      assertThat(page).hasURL(serve.url("/tasks/" + id));
      assertThat(page.locator("#flash")).hasText("logged in");
      assertThat(page.locator("#controls")).isVisible();
      String cookie = answer.headerValue("set-cookie");
      assertThat(cookie).containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict");
      assertThat(cookie).doesNotContain(serve.token());
      assertThat(page.evaluate("document.cookie")).isEqualTo(""); // HttpOnly: no script sees it

      page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Log out")).click();
      assertThat(page).hasURL(serve.url("/"));
      assertThat(page.locator("#controls")).hasCount(0);
      assertThat(page.context().cookies()).isEmpty();

      // Without a next page, the login leads to the overview.
      page.navigate(serve.url("/login"));
      DashboardLogin.submit(page, serve.token());
      assertThat(page).hasURL(serve.url("/"));
      assertThat(page.locator("#flash")).hasText("logged in");
      // The wrong token's 403, which the browser reports itself.
      tab.assertNoErrorsBut("status of 403 (Forbidden) (" + serve.url("/login"));
    }
  }

  @Test
  void everyControlOfATaskAndItsTree() throws InterruptedException {
    long parent =
        serve
            .post(
                "/api/v1/tasks",
                "{\"policy\": \"oneshot\", \"type\": \"crawl\", \"args\": [\"p\"]}")
            .get("id")
            .asLong();
    Wait.until(
        "the crawl to spawn its leaves", RUN, () -> status(parent).equals("waiting_for_children"));
    try (BrowserTab tab = browser.open(serve.url("/"))) {
      Page page = tab.page();
      DashboardLogin.logIn(page, serve, "/tasks/" + parent);
      assertThat(page.locator("#status")).hasText("awaiting");
      assertThat(page.locator("#tree")).hasText(Pattern.compile("children: 51 \\(51 pending"));
      assertThat(page.locator("#children tr")).hasCount(51); // a heading and 50 children
      assertThat(page.locator("#controls input[name=tree]")).hasCount(4); // all but Retry
      assertThat(page.locator("#runs tr")).hasCount(2);
      assertThat(page.locator("#runs tr").nth(1).locator("td").nth(5))
          .hasText(Pattern.compile("^[0-9.]+m?s$"));
      page.locator("#children-next").click();
      assertThat(page.locator("#children tr")).hasCount(2);
      Locator lastLeaf = page.locator("#children tr").nth(1).locator("a");
      String leafText = lastLeaf.textContent();
      long leaf = Long.parseLong(leafText);
      lastLeaf.click();

      // A child: its parent linked, and no tree boxes.
      assertThat(page.locator("h1")).hasText("Task " + leaf);
      assertThat(page.locator("#tree a").first()).hasText(Long.toString(parent));
      assertThat(page.locator("#tree-counts tr").nth(1).locator("td.n").first())
          .hasText("51"); // waiting, in the tree of the root
      assertThat(page.locator("#controls input[name=tree]")).hasCount(0);

      click(page, "Pause");
      assertThat(page.locator("#flash")).hasText("paused 1 task");
      assertThat(page.locator("#status")).hasText("paused");
      assertThat(status(leaf)).isEqualTo("paused");

      click(page, "Resume");
      assertThat(page.locator("#flash")).hasText("resumed 1 task");
      assertThat(status(leaf)).isEqualTo("next_run_not_scheduled");

      click(page, "Cancel");
      assertThat(page.locator("#flash")).hasText("cancelled 1 task");
      assertThat(page.locator("#status")).hasText("disabled");
      assertThat(status(leaf)).isEqualTo("disabled");

      click(page, "Retry");
      assertThat(page.locator("#flash")).hasText("retried 1 task");
      assertThat(status(leaf)).isEqualTo("next_run_not_scheduled");

      // The parent, the whole tree paused with the box ticked: its 51 waiting children pause; the
      // parent itself awaits them, neither waiting nor running, so it is left as it is.
      page.locator("#tree a").first().click();
      assertThat(page.locator("h1")).hasText("Task " + parent);
      form(page, "Pause").locator("input[name=tree]").check();
      click(page, "Pause");
      assertThat(page.locator("#flash")).hasText("paused 51 tasks");
      assertThat(status(leaf)).isEqualTo("paused");

      // Delete asks first: dismissed, nothing happens; accepted, the tree is gone.
      form(page, "Delete").locator("input[name=tree]").check();
      page.onceDialog(d -> d.dismiss());
      click(page, "Delete");
      assertThat(page.locator("h1")).hasText("Task " + parent);
      assertThat(serve.get("/api/v1/tasks/" + parent).get("id").asLong()).isEqualTo(parent);
      page.onceDialog(d -> d.accept());
      click(page, "Delete");
      assertThat(page).hasURL(serve.url("/tasks"));
      assertThat(page.locator("#flash")).hasText(Pattern.compile("^deleted 52 tasks, 1 run and "));
      assertThat(new ApiClient(port()).get("/api/v1/tasks/" + leaf).status()).isEqualTo(404);
      tab.assertNoErrors();
    }
  }

  @Test
  void pauseAndResumeATaskType() {
    serve.post("/api/v1/task-types", "{\"name\": \"mirror\", \"command\": [\"true\"]}");
    try (BrowserTab tab = browser.open(serve.url("/"))) {
      Page page = tab.page();
      DashboardLogin.logIn(page, serve, "/task-types");
      Locator row = page.locator("#type-mirror");
      assertThat(row.locator("td.state")).hasText("active");
      row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Pause")).click();
      assertThat(page.locator("#flash")).hasText("paused task type mirror");
      assertThat(row.locator("td.state")).hasText("paused");
      // The store's own record of it: the operator_control event of the pause.
      assertThat(serve.get("/api/v1/events?kind=operator_control").toString())
          .contains("\"mirror\"");
      row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Resume")).click();
      assertThat(page.locator("#flash")).hasText("resumed task type mirror");
      assertThat(row.locator("td.state")).hasText("active");
      tab.assertNoErrors();
    }
  }

  @Test
  void outputIsShownAsTextNeverRun() throws InterruptedException {
    long id =
        serve
            .post(
                "/api/v1/tasks",
                "{\"policy\": \"oneshot\", \"type\": \"shout\", \"args\": [\"x\"]}")
            .get("id")
            .asLong();
    Wait.until("the shout to fail", RUN, () -> status(id).equals("disabled"));
    try (BrowserTab tab = browser.open(serve.url("/tasks/" + id))) {
      Page page = tab.page();
      assertThat(page.locator("#status")).hasText("failed");
      assertThat(page.locator("#status")).hasClass("failed");
      assertThat(page.locator("#stdout")).hasText("<script>console.error(1)</script>");
      assertThat(page.locator("#stderr")).hasText("<b>oops</b>");
      assertThat(page.locator("#last-error")).hasText(Pattern.compile("exit code 3"));
      assertThat(page.locator("#runs td.err")).hasText(Pattern.compile("exit code 3"));
      assertThat(page.locator("pre b")).hasCount(0);
      tab.assertNoErrors();
    }
  }

  @Test
  void aFormFromAnotherSitesPageIsRefused() throws IOException {
    long id =
        serve
            .post(
                "/api/v1/tasks",
                "{\"policy\": \"oneshot\", \"type\": \"leaf\", \"args\": [\"victim\"]}")
            .get("id")
            .asLong();
    HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    try (BrowserTab tab = browser.open(serve.url("/"))) {
      Page page = tab.page();
      DashboardLogin.logIn(page, serve, "/tasks/" + id);
      // Even a page that knew the session's CSRF token is refused for its origin.
      String csrf = page.locator("#controls input[name=csrf]").first().inputValue();
      String html =
          "<form id=\"f\" method=\"post\" action=\""
              + serve.url("/tasks/" + id + "/cancel")
              + "\"><input type=\"hidden\" name=\"csrf\" value=\""
              + csrf
              + "\"></form><script>document.getElementById('f').submit()</script>";
      other.createContext(
          "/",
          x -> {
            byte[] body = html.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            x.sendResponseHeaders(200, body.length);
            try (OutputStream out = x.getResponseBody()) {
              out.write(body);
            }
          });
      other.start();
      Page attack = page.context().newPage();
      attack.navigate("http://127.0.0.1:" + other.getAddress().getPort() + "/");
      assertThat(attack).hasURL(serve.url("/tasks/" + id + "/cancel"));
      assertThat(attack.locator("h1")).hasText("Error 403");
      assertThat(attack.locator("#error")).hasText(Pattern.compile("another site"));
      assertThat(status(id)).isEqualTo("next_run_not_scheduled");
      page.reload();
      assertThat(page.locator("#status")).not().hasText("disabled");
      tab.assertNoErrors();
    } finally {
      other.stop(0);
    }
  }

  private static String status(long id) {
    return serve.get("/api/v1/tasks/" + id).get("status").asText();
  }

  private static int port() {
    return Integer.parseInt(serve.url("").replaceAll(".*:", ""));
  }

  private static Locator form(Page page, String button) {
    return page.locator("#controls form")
        .filter(
            new Locator.FilterOptions()
                .setHas(page.locator("button", new Page.LocatorOptions().setHasText(button))));
  }

  private static void click(Page page, String button) {
    form(page, button).locator("button").click();
  }
}
