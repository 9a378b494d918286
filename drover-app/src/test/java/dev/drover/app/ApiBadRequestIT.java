package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.store.StoreLocation;
import dev.drover.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad requests to the API, one row per mistake, against one server over a seeded store (one
 * subclass per database). Each must get its 4xx status and a JSON body {@code {"error": {"field",
 * "message"}}} naming the field at fault in one line, and leave every row of the database as it
 * was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ApiBadRequestIT {
  private static final String TOKEN = "Bearer " + ApiClient.TOKEN;
  private static final String JSON = "application/json";

  /** One mistake: the request and what the answer must say. */
  record Case(
      String name,
      String method,
      String path,
      String body,
      String authorization,
      String contentType,
      int status,
      String field) {
    @Override
    public String toString() {
      return name;
    }
  }

  private Path dir;
  private TestServer server;

  @BeforeAll
  void start() throws IOException {
    dir = Files.createTempDirectory("drover-api-bad");
    StoreLocation location = location(dir);
    Fixtures.seed(location, dir);
    server = TestServer.on(location);
  }

  /** A new store for the whole class (not one per test: every case runs on the same one). */
  abstract StoreLocation location(Path dir);

  @AfterAll
  void stop() {
    server.close();
    TempDirs.delete(dir);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isRefusedWithTheFieldAndChangesNothing(Case c) {
    List<String> before = server.snapshot();
    ApiClient.Reply reply =
        server.client.send(c.path(), c.method(), c.body(), c.authorization(), c.contentType());
    assertThat(reply.status()).as(reply.body()).isEqualTo(c.status());
    assertThat(reply.headers().get("content-type")).anySatisfy(t -> assertThat(t).startsWith(JSON));
    JsonNode error = reply.error();
    assertThat(error).as(reply.body()).isNotNull();
    if (c.field() == null) {
      assertThat(error.get("field").isNull()).as(reply.body()).isTrue();
    } else {
      assertThat(error.get("field").asText()).as(reply.body()).isEqualTo(c.field());
    }
    String message = error.get("message").asText();
    assertThat(message).isNotBlank().doesNotContain("\n").doesNotContain("Exception");
    assertThat(server.snapshot()).isEqualTo(before);
  }

  static Stream<Case> cases() {
    List<Case> c = new ArrayList<>();
    // ---- a task: the body as a whole
    c.add(post("malformed JSON", "/api/v1/tasks", "{\"type\": ", 400, "body"));
    c.add(
        post(
            "repeated key",
            "/api/v1/tasks",
            "{\"type\": \"check\", \"type\": \"x\"}",
            400,
            "body"));
    c.add(post("two values", "/api/v1/tasks", "{\"type\": \"check\"} {}", 400, "body"));
    c.add(post("empty body", "/api/v1/tasks", "", 400, "body"));
    c.add(post("an array, not an object", "/api/v1/tasks", "[]", 400, "body"));
    c.add(post("a string, not an object", "/api/v1/tasks", "\"check\"", 400, "body"));
    c.add(post("lone surrogate", "/api/v1/tasks", "{\"type\": \"\\ud800\"}", 400, "body"));
    c.add(post("NUL character", "/api/v1/tasks", "{\"type\": \"a\\u0000\"}", 400, "body"));
    // ---- the crawl frontier's writes
    c.add(post("a lister without a name", "/api/v1/listers", "{}", 400, "name"));
    c.add(
        post(
            "a lister's unknown key",
            "/api/v1/listers",
            "{\"name\": \"g\", \"kind\": 1}",
            400,
            "kind"));
    c.add(post("a lister's name not a string", "/api/v1/listers", "{\"name\": 7}", 400, "name"));
    c.add(post("origins missing", "/api/v1/origins", "{\"lister\": \"nobody\"}", 400, "origins"));
    c.add(post("origins not an array", "/api/v1/origins", "{\"origins\": {}}", 400, "origins"));
    c.add(
        post(
            "more than 1,000 origins",
            "/api/v1/origins",
            "{\"lister\": \"nobody\", \"origins\": ["
                + String.join(",", java.util.Collections.nCopies(1001, "{}"))
                + "]}",
            400,
            "origins"));
    c.add(
        post(
            "origins' unknown key",
            "/api/v1/origins",
            "{\"origins\": [], \"kind\": 1}",
            400,
            "kind"));
    c.add(
        post(
            "an origin not an object", "/api/v1/origins", "{\"origins\": [7]}", 400, "origins[0]"));
    c.add(
        post(
            "an origin without a url",
            "/api/v1/origins",
            "{\"lister\": \"nobody\", \"origins\": [{\"visit_type\": \"git\"}]}",
            400,
            "origins[0].url"));
    c.add(
        post(
            "an origin of an unknown lister",
            "/api/v1/origins",
            "{\"lister\": \"nobody\", \"origins\": [{\"url\": \"https://a\", \"visit_type\": \"git\"}]}",
            400,
            "origins[0].lister"));
    c.add(post("nested 5000 deep", "/api/v1/tasks", deep(5000), 400, "body"));
    c.add(post("body over 1 MiB", "/api/v1/tasks", huge(), 413, "body"));
    c.add(
        new Case(
            "not JSON content",
            "POST",
            "/api/v1/tasks",
            "type=check",
            TOKEN,
            "text/plain",
            415,
            "Content-Type"));
    // ---- a task: its keys
    c.add(post("type missing", "/api/v1/tasks", "{}", 400, "type"));
    c.add(post("type a number", "/api/v1/tasks", "{\"type\": 5}", 400, "type"));
    c.add(post("type blank", "/api/v1/tasks", "{\"type\": \" \"}", 400, "type"));
    c.add(post("type unknown", "/api/v1/tasks", "{\"type\": \"nope\"}", 400, "type"));
    c.add(post("unknown key", "/api/v1/tasks", git("\"colour\": \"red\""), 400, "colour"));
    c.add(
        post(
            "kwargs an array",
            "/api/v1/tasks",
            "{\"type\": \"load-git\", \"kwargs\": []}",
            400,
            "kwargs"));
    c.add(post("args an object", "/api/v1/tasks", git("\"args\": {}"), 400, "args"));
    c.add(
        post(
            "priority unknown", "/api/v1/tasks", git("\"priority\": \"urgent\""), 400, "priority"));
    c.add(post("priority a number", "/api/v1/tasks", git("\"priority\": 3"), 400, "priority"));
    c.add(post("policy unknown", "/api/v1/tasks", git("\"policy\": \"sometimes\""), 400, "policy"));
    c.add(
        post(
            "next_run not a time",
            "/api/v1/tasks",
            git("\"next_run\": \"soon\""),
            400,
            "next_run"));
    c.add(post("next_run a number", "/api/v1/tasks", git("\"next_run\": 12345"), 400, "next_run"));
    c.add(post("retries negative", "/api/v1/tasks", git("\"retries\": -1"), 400, "retries"));
    c.add(post("retries a fraction", "/api/v1/tasks", git("\"retries\": 1.5"), 400, "retries"));
    c.add(post("retries a string", "/api/v1/tasks", git("\"retries\": \"3\""), 400, "retries"));
    c.add(
        post(
            "retries too large", "/api/v1/tasks", git("\"retries\": 99999999999"), 400, "retries"));
    c.add(
        post(
            "recurring task of a oneshot type",
            "/api/v1/tasks",
            "{\"type\": \"check\", \"args\": [\"/a\"], \"policy\": \"recurring\"}",
            400,
            "policy"));
    // ---- a batch: all or nothing, errors name the task
    c.add(post("batch: tasks a string", "/api/v1/tasks/batch", "{\"tasks\": \"x\"}", 400, "tasks"));
    c.add(post("batch: tasks missing", "/api/v1/tasks/batch", "{}", 400, "tasks"));
    c.add(post("batch: tasks empty", "/api/v1/tasks/batch", "{\"tasks\": []}", 400, "tasks"));
    c.add(post("batch: unknown key", "/api/v1/tasks/batch", "{\"task\": []}", 400, "task"));
    c.add(
        post(
            "batch: second task bad",
            "/api/v1/tasks/batch",
            "{\"tasks\": ["
                + git("\"priority\": \"low\"")
                + ", "
                + git("\"priority\": \"x\"")
                + "]}",
            400,
            "tasks[1].priority"));
    c.add(
        post(
            "batch: third task unknown type",
            "/api/v1/tasks/batch",
            "{\"tasks\": [" + git("") + ", " + git("\"retries\": 1") + ", {\"type\": \"nope\"}]}",
            400,
            "tasks[2].type"));
    c.add(
        post(
            "batch: a task not an object",
            "/api/v1/tasks/batch",
            "{\"tasks\": [1]}",
            400,
            "tasks[0]"));
    // ---- task types
    c.add(post("type: name missing", "/api/v1/task-types", "{}", 400, "name"));
    c.add(
        post(
            "type: bad duration",
            "/api/v1/task-types",
            type("\"default_interval\": \"soon\""),
            400,
            "default_interval"));
    c.add(
        post(
            "type: backoff a string",
            "/api/v1/task-types",
            type("\"backoff_factor\": \"2\""),
            400,
            "backoff_factor"));
    c.add(
        post(
            "type: command a string",
            "/api/v1/task-types",
            "{\"name\": \"t\", \"command\": \"ls -l\"}",
            400,
            "command"));
    c.add(
        post(
            "type: command entry a number",
            "/api/v1/task-types",
            "{\"name\": \"t\", \"command\": [\"ls\", 3]}",
            400,
            "command[1]"));
    c.add(
        post(
            "type: unknown group",
            "/api/v1/task-types",
            type("\"group\": \"nope\""),
            400,
            "group"));
    c.add(
        post(
            "type: max_workers 0",
            "/api/v1/task-types",
            type("\"max_workers\": 0"),
            400,
            "max_workers"));
    c.add(
        post(
            "type: env value a number",
            "/api/v1/task-types",
            type("\"env\": {\"A\": 1}"),
            400,
            "env.A"));
    c.add(
        post(
            "type: bad cron", "/api/v1/task-types", type("\"cron\": \"61 * * * *\""), 400, "cron"));
    c.add(
        post(
            "type: unknown key",
            "/api/v1/task-types",
            type("\"interval\": \"1h\""),
            400,
            "interval"));
    c.add(
        post(
            "type: unknown run history",
            "/api/v1/task-types",
            type("\"run_history\": \"some\""),
            400,
            "run_history"));
    c.add(
        post(
            "type: unknown children rule",
            "/api/v1/task-types",
            type("\"children_rule\": \"most\""),
            400,
            "children_rule"));
    c.add(
        post(
            "type: time_zone without cron",
            "/api/v1/task-types",
            type("\"time_zone\": \"UTC\""),
            400,
            "time_zone"));
    // ---- parameters
    c.add(get("limit 0", "/api/v1/tasks?limit=0", 400, "limit"));
    c.add(get("limit not a number", "/api/v1/tasks?limit=ten", 400, "limit"));
    c.add(get("limit too large", "/api/v1/tasks?limit=5000", 400, "limit"));
    c.add(get("after negative", "/api/v1/tasks?after=-1", 400, "after"));
    c.add(get("status unknown", "/api/v1/tasks?status=sleeping", 400, "status"));
    c.add(get("task id not a number", "/api/v1/tasks/abc", 400, "id"));
    c.add(get("task id 0", "/api/v1/tasks/0", 400, "id"));
    c.add(get("no such task", "/api/v1/tasks/99999", 404, "id"));
    c.add(get("runs of no such task", "/api/v1/tasks/99999/runs", 404, "id"));
    c.add(get("run status unknown", "/api/v1/tasks/1/runs?status=bogus", 400, "status"));
    c.add(get("no such task type", "/api/v1/task-types/nope", 404, "name"));
    c.add(get("events after not a number", "/api/v1/events?after=x", 400, "after"));
    c.add(get("origins lister not a UUID", "/api/v1/origins?lister=xyz", 400, "lister"));
    c.add(post("disable no such task", "/api/v1/tasks/99999/disable", null, 404, "id"));
    c.add(post("enable a non-id", "/api/v1/tasks/abc/enable", null, 400, "id"));
    // ---- operator control and trees: ids, tree, pages; a 404 or 400 changes nothing
    for (String verb : List.of("pause", "resume", "cancel", "retry")) {
      c.add(post(verb + ": id not a number", "/api/v1/tasks/abc/" + verb, null, 400, "id"));
      c.add(post(verb + ": id 0", "/api/v1/tasks/0/" + verb, null, 400, "id"));
      c.add(post(verb + ": no such task", "/api/v1/tasks/99999/" + verb, null, 404, "id"));
      c.add(
          post(
              verb + ": tree not a boolean",
              "/api/v1/tasks/1/" + verb + "?tree=yes",
              null,
              400,
              "tree"));
      c.add(token(verb + ": no token", "POST", "/api/v1/tasks/1/" + verb, null, 401));
      c.add(token(verb + ": wrong token", "POST", "/api/v1/tasks/1/" + verb, "Bearer nope", 403));
      c.add(get(verb + ": GET, not POST", "/api/v1/tasks/1/" + verb, 405, null));
    }
    c.add(post("retry: tree does not apply", "/api/v1/tasks/1/retry?tree=true", null, 400, "tree"));
    c.add(post("cancel: tree empty", "/api/v1/tasks/1/cancel?tree=", null, 400, "tree"));
    c.add(delete("delete: id not a number", "/api/v1/tasks/abc", 400, "id"));
    c.add(delete("delete: no such task", "/api/v1/tasks/99999", 404, "id"));
    c.add(delete("delete: no such tree", "/api/v1/tasks/99999?tree=true", 404, "id"));
    c.add(delete("delete: tree not a boolean", "/api/v1/tasks/1?tree=1", 400, "tree"));
    c.add(token("origins: no token", "POST", "/api/v1/origins", null, 401));
    c.add(token("listers: wrong token", "POST", "/api/v1/listers", "Bearer nope", 403));
    c.add(token("delete: no token", "DELETE", "/api/v1/tasks/1", null, 401));
    c.add(token("delete: wrong token", "DELETE", "/api/v1/tasks/1?tree=true", "Bearer x", 403));
    c.add(new Case("PUT on a task", "PUT", "/api/v1/tasks/1", "{}", TOKEN, JSON, 405, null));
    for (String verb : List.of("pause", "resume")) {
      String path = "/api/v1/task-types/";
      c.add(post("type " + verb + ": no such type", path + "nope/" + verb, null, 404, "name"));
      c.add(token("type " + verb + ": no token", "POST", path + "check/" + verb, null, 401));
      c.add(get("type " + verb + ": GET, not POST", path + "check/" + verb, 405, null));
    }
    c.add(
        new Case(
            "DELETE a task type",
            "DELETE",
            "/api/v1/task-types/check",
            null,
            TOKEN,
            null,
            405,
            null));
    c.add(get("tree: id not a number", "/api/v1/tasks/abc/tree", 400, "id"));
    c.add(get("tree: no such task", "/api/v1/tasks/99999/tree", 404, "id"));
    c.add(get("tree: after not a number", "/api/v1/tasks/1/tree?after=x", 400, "after"));
    c.add(get("tree: after negative", "/api/v1/tasks/1/tree?after=-1", 400, "after"));
    c.add(get("tree: limit 0", "/api/v1/tasks/1/tree?limit=0", 400, "limit"));
    c.add(get("tree: limit too large", "/api/v1/tasks/1/tree?limit=5000", 400, "limit"));
    c.add(
        new Case(
            "tree: POST, not GET", "POST", "/api/v1/tasks/1/tree", null, TOKEN, null, 405, null));
    // ---- routes, methods, tokens
    c.add(get("unknown route", "/api/v1/nothing", 404, null));
    c.add(post("unknown route, written to", "/api/v1/nothing", "{}", 404, null));
    c.add(new Case("DELETE on tasks", "DELETE", "/api/v1/tasks", null, TOKEN, null, 405, null));
    c.add(new Case("PUT on task types", "PUT", "/api/v1/task-types", "{}", TOKEN, JSON, 405, null));
    c.add(new Case("no token", "POST", "/api/v1/tasks", git(""), null, JSON, 401, "Authorization"));
    c.add(
        new Case(
            "wrong token",
            "POST",
            "/api/v1/tasks",
            git(""),
            "Bearer nope",
            JSON,
            403,
            "Authorization"));
    c.add(
        new Case(
            "not a bearer token",
            "POST",
            "/api/v1/tasks",
            git(""),
            "Basic " + ApiClient.TOKEN,
            JSON,
            403,
            "Authorization"));
    c.add(
        new Case(
            "no token, disabling",
            "POST",
            "/api/v1/tasks/1/disable",
            null,
            null,
            null,
            401,
            "Authorization"));
    c.add(
        new Case(
            "no token, creating a type",
            "POST",
            "/api/v1/task-types",
            type(""),
            null,
            JSON,
            401,
            "Authorization"));
    return c.stream();
  }

  private static Case post(String name, String path, String body, int status, String field) {
    return new Case(name, "POST", path, body, TOKEN, body == null ? null : JSON, status, field);
  }

  private static Case delete(String name, String path, int status, String field) {
    return new Case(name, "DELETE", path, null, TOKEN, null, status, field);
  }

  /** A write with a missing or wrong token: refused before anything else is looked at. */
  private static Case token(
      String name, String method, String path, String authorization, int status) {
    return new Case(name, method, path, null, authorization, null, status, "Authorization");
  }

  private static Case get(String name, String path, int status, String field) {
    return new Case(name, "GET", path, null, null, null, status, field);
  }

  /** A valid load-git task with {@code extra} keys. */
  private static String git(String extra) {
    return "{\"type\": \"load-git\", \"kwargs\": {\"path\": \"/srv/new.git\"}"
        + (extra.isEmpty() ? "" : ", " + extra)
        + "}";
  }

  /** A valid new task type with {@code extra} keys. */
  private static String type(String extra) {
    return "{\"name\": \"new-type\", \"command\": [\"true\"]"
        + (extra.isEmpty() ? "" : ", " + extra)
        + "}";
  }

  private static String deep(int depth) {
    return "{\"type\": \"load-git\", \"kwargs\": {\"path\": \"/a\", \"x\": "
        + "[".repeat(depth)
        + "]".repeat(depth)
        + "}}";
  }

  private static String huge() {
    return "{\"type\": \"load-git\", \"kwargs\": {\"path\": \"" + "a".repeat(2 << 20) + "\"}}";
  }
}
