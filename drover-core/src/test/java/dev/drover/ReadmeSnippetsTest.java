package dev.drover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.store.StoreLocation;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java snippets are programs: each {@code ```java} block is compiled as it is written
 * (against this module's test class path) and its {@code main} run on a new data directory, which
 * must then hold an eventful run. A snippet that lacks an import or calls an undefined helper fails
 * here, not in a reader's hands.
 */
class ReadmeSnippetsTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern CLASS_NAME = Pattern.compile("public (?:final )?class (\\w+)");

  @TempDir Path tmp;

  static List<String> javaBlocks(String markdown) {
    List<String> blocks = new ArrayList<>();
    Matcher m = JAVA_BLOCK.matcher(markdown);
    while (m.find()) {
      blocks.add(m.group(1));
    }
    return blocks;
  }

  @Test
  void everyJavaSnippetCompilesAndRuns() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    List<String> blocks = javaBlocks(readme);
    assertThat(blocks).as("the README's java blocks").hasSize(3);
    for (int i = 0; i < blocks.size(); i++) {
      String source = blocks.get(i);
      Matcher name = CLASS_NAME.matcher(source);
      assertThat(name.find()).as("snippet %d declares a public class:%n%s", i + 1, source).isTrue();
      Path classes = compile(name.group(1), source, tmp.resolve("snippet" + i));
      Path dataDir = tmp.resolve("data" + i);
      try (URLClassLoader loader =
          new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
        Method main = loader.loadClass(name.group(1)).getMethod("main", String[].class);
        main.invoke(null, (Object) new String[] {dataDir.toString()});
      }
      try (Drover drover = Drover.open(StoreLocation.dataDir(dataDir))) {
        List<TaskRun> runs = drover.taskRuns(List.of(), null, 10);
        assertThat(runs)
            .as("the runs snippet %d made", i + 1)
            .isNotEmpty()
            .allMatch(r -> r.status() == TaskRunStatus.EVENTFUL);
      }
    }
  }

  private static Path compile(String className, String source, Path dir) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src")).resolve(className + ".java");
    Files.writeString(src, source, StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    try (StandardJavaFileManager files =
        compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      boolean ok =
          compiler
              .getTask(
                  null,
                  files,
                  diagnostics,
                  List.of(
                      "-classpath",
                      classPath + File.pathSeparator + classes,
                      "-d",
                      classes.toString(),
                      "-proc:none",
                      "-Xlint:all",
                      "-Werror"),
                  null,
                  files.getJavaFileObjects(src))
              .call();
      assertThat(ok)
          .as(
              "%s compiles:%n%s%n%s",
              className,
              diagnostics.getDiagnostics().stream()
                  .map(d -> d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                  .collect(Collectors.joining("\n")),
              source)
          .isTrue();
    }
    return classes;
  }
}
