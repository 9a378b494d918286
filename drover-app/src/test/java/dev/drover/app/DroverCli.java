package dev.drover.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code drover} commands, in a non-UTC time zone and the Turkish locale so that time and case
 * bugs show, in one of two ways:
 *
 * <ul>
 *   <li>{@link #in}: in this JVM, through the same picocli entry point as the jar ({@link
 *       InProcess}), as if started from {@code workDir} with its own environment. A command costs
 *       milliseconds instead of a JVM start, so most end-to-end tests run this way. One difference:
 *       the command tasks a runner starts inherit this JVM's working directory and environment, not
 *       {@code workDir} and {@link #env}; a test that depends on those uses the jar.
 *   <li>{@link #jar}: the real shaded jar ({@code -Ddrover.jar}) as a subprocess, the way a person
 *       runs it. Only this way can a test {@link #start} a command in the background, signal it or
 *       kill it; a few tests keep the front door (the jar, its manifest, {@code main}) honest.
 * </ul>
 */
final class DroverCli {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_SECONDS = 120;

  private final Path workDir;
  private final boolean jar;
  private final Map<String, String> env = new HashMap<>();
  private final List<String> jvmOptions = new ArrayList<>();

  private DroverCli(Path workDir, boolean jar) {
    this.workDir = workDir;
    this.jar = jar;
  }

  /** Commands run in this JVM from {@code workDir}, without any DROVER_DB of the test's own. */
  static DroverCli in(Path workDir) {
    return new DroverCli(workDir, false);
  }

  /** Commands run by the real jar from {@code workDir}, without any DROVER_DB of the test's own. */
  static DroverCli jar(Path workDir) {
    return new DroverCli(workDir, true);
  }

  DroverCli env(String name, String value) {
    env.put(name, value);
    return this;
  }

  /** Adds an option of the JVM that runs the jar (only for {@link #jar}). */
  DroverCli jvmOption(String option) {
    jvmOptions.add(option);
    return this;
  }

  /** Parses JSON a command printed, failing the test with the text when it is not JSON. */
  static JsonNode parseJson(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  /** What one run printed and returned. */
  record Result(int exitCode, String stdout, String stderr) {
    List<String> stderrLines() {
      return stderr.isEmpty() ? List.of() : stderr.lines().toList();
    }

    JsonNode json() {
      return parseJson(stdout);
    }

    /** Fails with everything printed unless the exit code is 0. */
    Result ok() {
      if (exitCode != 0) {
        throw new AssertionError(
            "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
      }
      return this;
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }

  Result run(Object... args) {
    if (!jar) {
      return InProcess.run(workDir, environment(), TIMEOUT_SECONDS, strings(args));
    }
    Started started = start(args);
    try {
      return started.finish(TIMEOUT_SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Starts the jar without waiting for it, e.g. to signal it while it runs. */
  Started start(Object... args) {
    if (!jar) {
      throw new IllegalStateException(
          "only a real process runs in the background: use DroverCli.jar");
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-Duser.timezone=America/Los_Angeles",
                "-Duser.language=tr",
                "-Duser.country=TR"));
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar().toString());
    command.addAll(List.of(strings(args)));
    try {
      Path out = Files.createTempFile("drover-out", ".txt");
      Path err = Files.createTempFile("drover-err", ".txt");
      // finish deletes them; a process the test kills or leaves running never gets there.
      out.toFile().deleteOnExit();
      err.toFile().deleteOnExit();
      ProcessBuilder pb =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      pb.environment().remove("DROVER_DB");
      pb.environment().putAll(env);
      return new Started(pb.start(), List.of(args), out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A CLI process that was started and may still run. */
  record Started(Process process, List<Object> args, Path out, Path err) {
    /** What it printed to stderr so far. */
    String stderrSoFar() {
      try {
        return Files.readString(err, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /**
     * Waits for it to end (killing it after {@code timeoutSeconds}) and returns what it printed.
     */
    Result finish(long timeoutSeconds) throws InterruptedException {
      try {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new AssertionError("drover " + args + " did not finish in " + timeoutSeconds + "s");
        }
        return new Result(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        try {
          Files.deleteIfExists(out);
          Files.deleteIfExists(err);
        } catch (IOException e) {
          // a leftover temporary file is harmless
        }
      }
    }
  }

  /** The environment a command sees: the test's, without DROVER_DB, plus what {@link #env} set. */
  private Map<String, String> environment() {
    Map<String, String> all = new HashMap<>(System.getenv());
    all.remove("DROVER_DB");
    all.putAll(env);
    return all;
  }

  private static String[] strings(Object... args) {
    String[] strings = new String[args.length];
    for (int i = 0; i < args.length; i++) {
      strings[i] = args[i].toString();
    }
    return strings;
  }

  private static Path jar() {
    String jar = System.getProperty("drover.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "set -Ddrover.jar to the shaded jar (mvn verify does), got " + jar);
    }
    return Path.of(jar);
  }
}
