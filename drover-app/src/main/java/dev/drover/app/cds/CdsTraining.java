package dev.drover.app.cds;

import dev.drover.app.Main;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The workload whose loaded classes go into the class-data archive ({@link CdsArchive}): the
 * everyday commands, run once each in this one JVM on a new SQLite store in a temporary directory.
 * A class a command loads that is not in the archive still loads, only more slowly, so the list
 * needs to cover the common paths, not every one. {@code run} is left out: it works for long, and
 * training it would cost the build more than its start-up would gain.
 */
public final class CdsTraining {
  private CdsTraining() {}

  /** Runs the workload; exits with 1, naming the command, if one of them fails. */
  public static void main(String[] args) throws IOException {
    Path dir = Files.createTempDirectory("drover-cds-training");
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
    try {
      Path config = Files.writeString(dir.resolve("drover.yaml"), CONFIG);
      String data = dir.resolve("data").toString();
      for (List<String> command : commands(config.toString())) {
        String[] argv =
            Stream.concat(Stream.of("--data-dir", data), command.stream()).toArray(String[]::new);
        System.setOut(discard);
        System.setErr(discard);
        int code = Main.run(argv);
        System.setOut(out);
        System.setErr(err);
        if (code != 0) {
          err.println("drover " + String.join(" ", command) + " exited with " + code);
          System.exit(1);
        }
      }
    } finally {
      System.setOut(out);
      System.setErr(err);
      deleteTree(dir);
    }
  }

  private static final String CONFIG =
      """
      task_types:
        train:
          default_interval: 1h
          num_retries: 1
          command: ["true"]
      """;

  private static List<List<String>> commands(String config) {
    return List.of(
        List.of("--version"),
        List.of("--help"),
        List.of("init"),
        List.of("config", "apply", config),
        List.of("task-type", "list"),
        List.of("task-type", "show", "train"),
        List.of("task", "add", "--type", "train", "--args", "[\"a\"]", "--priority", "high"),
        List.of("task", "add", "--type", "train", "--args", "[\"b\"]", "--policy", "oneshot"),
        List.of("task", "list"),
        List.of("task", "list", "--json"),
        List.of("task", "search", "--type", "train", "--json"),
        List.of("task", "show", "1"),
        List.of("task", "disable", "1"),
        List.of("task", "enable", "1"),
        List.of("task-run", "list", "--task", "2"),
        List.of("status"),
        List.of("status", "--json"),
        List.of("runners"),
        List.of("events"),
        List.of("task", "--help"));
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
