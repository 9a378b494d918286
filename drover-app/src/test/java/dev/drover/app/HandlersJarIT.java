package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.app.http.ApiToken;
import dev.drover.testing.Wait;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover run --handlers-jar FILE} and {@code drover serve --handlers-jar FILE}: a jar built
 * here, as a team would build one (a {@code HandlerProvider} compiled against Drover's API and
 * named in META-INF/services), executes its task type; a jar that is missing or declares no
 * provider is refused, naming the option.
 */
class HandlersJarIT {
  private static final String PROVIDER =
      """
      package team;

      import dev.drover.HandlerProvider;
      import dev.drover.Outcome;
      import dev.drover.TaskHandler;
      import java.util.Map;

      public class Greetings implements HandlerProvider {
        @Override
        public Map<String, TaskHandler> handlers() {
          return Map.of("greet", ctx -> Outcome.eventful());
        }
      }
      """;

  @TempDir Path tmp;

  private DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = tmp.resolve("data");
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.in(tmp).run(all);
  }

  @Test
  void runExecutesATaskTypeWithTheJarsHandler() throws Exception {
    Path jar = handlersJar(true);
    drover("init").ok();
    drover("task-type", "add", "--name", "greet").ok();
    // Only `run` knows the jar: adding a task of a type without a command needs the flag.
    drover("task", "add", "--type", "greet", "--policy", "oneshot", "--allow-unexecutable").ok();
    DroverCli.Result run = drover("run", "--handlers-jar", jar, "--json").ok();
    assertThat(run.json().get("eventful").asInt()).isEqualTo(1);
    assertThat(run.stderr()).as("no warning about the jar's type").doesNotContain("greet");
  }

  @Test
  void serveExecutesATaskTheApiAddsOfTheJarsType() throws Exception {
    Path jar = handlersJar(true);
    DroverCli cli = DroverCli.jar(tmp);
    cli.run("init").ok();
    cli.run("task-type", "add", "--name", "greet").ok();
    DroverCli.Started serve = cli.start("serve", "--handlers-jar", jar, "--listen", "127.0.0.1:0");
    DroverCli.Result done;
    try {
      ApiClient api = new ApiClient(ServeCommandIT.awaitPort(serve));
      String token = Files.readString(tmp.resolve("drover-data").resolve(ApiToken.FILE)).trim();
      // No --allow-unexecutable here: this server's runner has the jar.
      ApiClient.Reply created =
          api.send(
              "/api/v1/tasks",
              "POST",
              "{\"type\": \"greet\", \"policy\": \"oneshot\"}",
              "Bearer " + token,
              "application/json");
      assertThat(created.status()).as(created.body()).isEqualTo(200);
      long id = created.json().get("id").asLong();
      Wait.until(
          "serve's runner to run task " + id + " with the jar's handler",
          Duration.ofSeconds(60),
          () -> api.get("/api/v1/tasks/" + id).json().get("status").asText().equals("completed"));
      JsonNode runs = api.get("/api/v1/tasks/" + id + "/runs").json();
      assertThat(runs)
          .singleElement()
          .satisfies(r -> assertThat(r.get("status").asText()).isEqualTo("eventful"));
      // Status, which cannot see a runner's jars, says no more than it knows.
      assertThat(api.get("/api/v1/status").json())
          .filteredOn(t -> t.get("type").asText().equals("greet"))
          .singleElement()
          .satisfies(t -> assertThat(t.get("command_or_built_in_handler").asBoolean()).isFalse());
    } finally {
      serve.process().destroy();
      done = serve.finish(120);
    }
    assertThat(done.exitCode()).as(done.toString()).isZero();
    assertThat(done.stderr()).as("no warning about the jar's type").doesNotContain("greet has no");
  }

  @Test
  void refusesAMissingJarAndAJarWithoutProviders() throws Exception {
    drover("init").ok();
    DroverCli.Result missing = drover("run", "--handlers-jar", tmp.resolve("nope.jar"));
    assertThat(missing.exitCode()).isNotZero();
    assertThat(missing.stderr()).contains("--handlers-jar", "nope.jar");
    DroverCli.Result empty = drover("run", "--handlers-jar", handlersJar(false));
    assertThat(empty.exitCode()).isNotZero();
    assertThat(empty.stderr()).contains("--handlers-jar", "META-INF/services");
  }

  /** Compiles the provider against this test's class path and jars it (declared or not). */
  private Path handlersJar(boolean declared) throws Exception {
    Path src = Files.createDirectories(tmp.resolve("src/team")).resolve("Greetings.java");
    Files.writeString(src, PROVIDER, StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc =
        javac.run(
            null,
            null,
            null,
            "-d",
            classes.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            src.toString());
    assertThat(rc).as("javac of the provider").isZero();
    Path jar = tmp.resolve(declared ? "greetings.jar" : "undeclared.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        put(out, classes.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
      }
      if (declared) {
        put(
            out,
            "META-INF/services/dev.drover.HandlerProvider",
            "team.Greetings\n".getBytes(StandardCharsets.UTF_8));
      }
    }
    return jar;
  }

  private static void put(JarOutputStream out, String name, byte[] bytes) throws Exception {
    out.putNextEntry(new JarEntry(name));
    out.write(bytes);
    out.closeEntry();
  }
}
