package dev.drover.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a test helper's {@code main} in a JVM of its own, on this JVM's class path. */
public final class TestJvm {
  private TestJvm() {}

  /** Runs {@code main} with {@code args}; its stderr goes into its stdout. */
  public static Process start(Class<?> main, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }
}
