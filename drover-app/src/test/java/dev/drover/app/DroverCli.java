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
 * Runs the real shaded jar ({@code -Ddrover.jar}) as a subprocess, the way a person runs it, in a
 * non-UTC time zone and the Turkish locale so that time and case bugs show.
 */
final class DroverCli {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_SECONDS = 120;

  private final Path workDir;
  private final Map<String, String> env = new HashMap<>();

  private DroverCli(Path workDir) {
    this.workDir = workDir;
  }

  /** A CLI run from {@code workDir}, without any DROVER_DB of the test's own environment. */
  static DroverCli in(Path workDir) {
    return new DroverCli(workDir);
  }

  DroverCli env(String name, String value) {
    env.put(name, value);
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
        throw new AssertionError("exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr);
      }
      return this;
    }

    @Override
    public String toString() {
      return "exit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }

  Result run(Object... args) {
    Started started = start(args);
    try {
      return started.finish(TIMEOUT_SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Starts the CLI without waiting for it, e.g. to signal it while it runs. */
  Started start(Object... args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1",
        "-Duser.timezone=America/Los_Angeles", "-Duser.language=tr", "-Duser.country=TR",
        "-jar", jar().toString()));
    for (Object arg : args) {
      command.add(arg.toString());
    }
    try {
      Path out = Files.createTempFile("drover-out", ".txt");
      Path err = Files.createTempFile("drover-err", ".txt");
      ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
          .redirectOutput(out.toFile()).redirectError(err.toFile())
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

    /** Waits for it to end (killing it after {@code timeoutSeconds}) and returns what it printed. */
    Result finish(long timeoutSeconds) throws InterruptedException {
      try {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new AssertionError("drover " + args + " did not finish in " + timeoutSeconds + "s");
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
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

  private static Path jar() {
    String jar = System.getProperty("drover.jar");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException("set -Ddrover.jar to the shaded jar (mvn verify does), got " + jar);
    }
    return Path.of(jar);
  }
}
