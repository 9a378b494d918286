package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover run --handlers-jar FILE}: a jar built here, as a team would build one (a {@code
 * HandlerProvider} compiled against Drover's API and named in META-INF/services), executes its task
 * type; a jar that is missing or declares no provider is refused, naming the option.
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
