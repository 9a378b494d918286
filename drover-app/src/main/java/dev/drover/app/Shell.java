package dev.drover.app;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a {@code drover} command takes from whoever runs it: the working directory that relative
 * paths start from, the environment variables and the two output streams.
 *
 * <p>{@link #system()} is this process's own, which the jar uses. Tests run many commands in one
 * JVM, each as if started from its own directory with its own environment; a JVM cannot change its
 * working directory, so the CLI resolves relative paths through {@link #resolve(Path)}.
 *
 * @param workDir where relative paths start; null for the process's working directory, which leaves
 *     relative paths as given
 * @param env the environment variables ({@code DROVER_DB})
 * @param out standard output
 * @param err standard error
 */
record Shell(Path workDir, Map<String, String> env, PrintStream out, PrintStream err) {
  Shell {
    env = Map.copyOf(env);
  }

  /** This process's working directory, environment and streams. */
  static Shell system() {
    return new Shell(null, System.getenv(), System.out, System.err);
  }

  /** {@code path} as seen from the working directory. */
  Path resolve(Path path) {
    return workDir == null ? path : workDir.resolve(path);
  }

  /** A path given on the command line, relative to the working directory. */
  Path path(String text) {
    return resolve(Path.of(text));
  }

  /** The environment variable {@code name}, or null if it is not set. */
  String env(String name) {
    return env.get(name);
  }
}
