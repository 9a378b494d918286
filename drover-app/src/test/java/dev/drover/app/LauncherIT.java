package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code drover} launcher script hands the JVM the build's class-data archive while the
 * archive's stamp matches the jar, and otherwise runs without it, quietly: a stale, truncated or
 * corrupt archive never crashes a command or adds a line to its output.
 *
 * <p>The script runs from a copy of the repository's layout with no sources in it (so it never
 * rebuilds), the jar and the archive linked from this build's {@code target}.
 */
@EnabledOnOs(OS.LINUX)
class LauncherIT {
  @TempDir Path root;
  private Path target;
  private Path built;

  @BeforeEach
  void layout() throws IOException {
    Path jar = Path.of(System.getProperty("drover.jar")).toAbsolutePath();
    built = jar.getParent();
    target = Files.createDirectories(root.resolve("drover-app/target"));
    Files.copy(Path.of("..", "drover"), root.resolve("drover"));
    root.resolve("drover").toFile().setExecutable(true);
    Files.createSymbolicLink(target.resolve("drover.jar"), jar);
  }

  @Test
  void usesTheArchiveWhileItsStampMatches() throws Exception {
    assumeTrue(Files.isRegularFile(built.resolve("drover.jsa.stamp")), "built with an archive");
    Files.createSymbolicLink(target.resolve("drover.jsa"), built.resolve("drover.jsa"));
    Files.copy(built.resolve("drover.jsa.stamp"), target.resolve("drover.jsa.stamp"));

    assertThat(mainLoadedFrom()).contains("shared objects file");
  }

  @Test
  void ignoresAStaleArchive() throws Exception {
    assumeTrue(Files.isRegularFile(built.resolve("drover.jsa.stamp")), "built with an archive");
    Files.createSymbolicLink(target.resolve("drover.jsa"), built.resolve("drover.jsa"));
    // As after the jar was rebuilt: its size and time are no longer those in the stamp.
    Files.writeString(target.resolve("drover.jsa.stamp"), "1 1\n1 1\n");

    assertThat(mainLoadedFrom()).doesNotContain("shared objects file");
  }

  @Test
  void ignoresATruncatedArchive() throws Exception {
    assumeTrue(Files.isRegularFile(built.resolve("drover.jsa.stamp")), "built with an archive");
    // A dump cut short: the JVM would map it and crash (SIGBUS); its size betrays it.
    byte[] start = new byte[64 * 1024];
    try (var in = Files.newInputStream(built.resolve("drover.jsa"))) {
      in.readNBytes(start, 0, start.length);
    }
    Files.write(target.resolve("drover.jsa"), start);
    Files.copy(built.resolve("drover.jsa.stamp"), target.resolve("drover.jsa.stamp"));

    assertThat(mainLoadedFrom()).doesNotContain("shared objects file");
  }

  @Test
  void aCorruptArchiveThatTheStampMatchesIsRefusedQuietly() throws Exception {
    Path archive = Files.writeString(target.resolve("drover.jsa"), "not an archive\n");
    // A stamp that matches: the launcher passes the archive, and the JVM must refuse it.
    Files.writeString(
        target.resolve("drover.jsa.stamp"), stat(target.resolve("drover.jar"), archive));

    assertThat(mainLoadedFrom()).doesNotContain("shared objects file");
  }

  @Test
  void runsWithoutAnArchive() throws Exception {
    assertThat(mainLoadedFrom()).doesNotContain("shared objects file");
  }

  @Test
  void longCommandsRunWithTheSerialCollectorAndASmallHeapUnlessTheUserSaysOtherwise()
      throws Exception {
    assertThat(jvmFlags("run", "-XX:+PrintCommandLineFlags"))
        .contains("-XX:+UseSerialGC")
        .contains("-XX:MaxHeapSize=167772160");
    // DROVER_JAVA_OPTS comes after the launcher's options, and the JVM takes the last of each.
    assertThat(jvmFlags("serve", "-XX:+PrintCommandLineFlags -Xmx1g"))
        .contains("-XX:MaxHeapSize=1073741824");
  }

  /** The flags the JVM of {@code drover COMMAND --help} ran with, as PrintCommandLineFlags says. */
  private String jvmFlags(String command, String javaOpts) throws Exception {
    Path out = root.resolve("flags.txt");
    ProcessBuilder pb =
        new ProcessBuilder("bash", root.resolve("drover").toString(), command, "--help")
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile());
    pb.environment().put("DROVER_JAVA_OPTS", javaOpts);
    Process process = pb.start();
    process.getOutputStream().close();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(output).isZero();
    return output.lines().filter(line -> line.startsWith("-XX:")).findFirst().orElseThrow();
  }

  /**
   * Runs {@code drover --version} through the launcher, checks that it printed the version and
   * nothing else, and returns where the JVM loaded {@link Main} from.
   */
  private String mainLoadedFrom() throws Exception {
    Path classLog = root.resolve("classes.log");
    Path out = root.resolve("out.txt");
    Path err = root.resolve("err.txt");
    ProcessBuilder pb =
        new ProcessBuilder("bash", root.resolve("drover").toString(), "--version")
            .directory(root.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().put("DROVER_JAVA_OPTS", "-Xlog:class+load:file=" + classLog);
    Process process = pb.start();
    process.getOutputStream().close();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(stderr).isZero();
    assertThat(stderr).isEmpty();
    assertThat(Files.readString(out, StandardCharsets.UTF_8)).startsWith("drover ");
    return Files.readAllLines(classLog).stream()
        .filter(line -> line.contains(" dev.drover.app.Main "))
        .findFirst()
        .orElseThrow();
  }

  /** What {@code stat -L -c '%s %Y' JAR ARCHIVE} prints, as the build writes it in a stamp. */
  private static String stat(Path jar, Path archive) throws IOException {
    return line(jar) + line(archive);
  }

  private static String line(Path file) throws IOException {
    long seconds = Files.getLastModifiedTime(file).to(TimeUnit.SECONDS);
    return Files.size(file) + " " + seconds + "\n";
  }
}
