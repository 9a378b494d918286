package dev.drover.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One pinned npm package installed once into a cache directory with the machine's npm, for peers
 * that run on Node.js. The cache is {@code $DROVER_BENCH_CACHE}, else {@code
 * ~/.cache/drover-bench}.
 */
final class NodePackage {
  private static final long INSTALL_TIMEOUT_MINUTES = 10;

  private final String name;
  private final String version;

  NodePackage(String name, String version) {
    this.name = name;
    this.version = version;
  }

  /**
   * The directory holding {@code node_modules/<name>}, installing the package there first if
   * needed.
   */
  synchronized Path install() throws IOException, InterruptedException {
    String cache = System.getenv("DROVER_BENCH_CACHE");
    Path root =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "drover-bench");
    Path dir = root.resolve(name + "-" + version);
    if (Files.exists(dir.resolve("node_modules").resolve(name).resolve("package.json"))) {
      return dir;
    }
    requireTool("node");
    requireTool("npm");
    Files.createDirectories(dir);
    Path log = dir.resolve("npm-install.log");
    Process npm =
        new ProcessBuilder(
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--prefix",
                dir.toString(),
                name + "@" + version)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!npm.waitFor(INSTALL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      npm.destroyForcibly();
      throw new IOException(
          "npm install "
              + name
              + "@"
              + version
              + " did not finish in "
              + INSTALL_TIMEOUT_MINUTES
              + " minutes (log: "
              + log
              + ")");
    }
    if (npm.exitValue() != 0) {
      throw new IOException(
          "npm install "
              + name
              + "@"
              + version
              + " failed: "
              + String.join(" | ", tail(Files.readAllLines(log, StandardCharsets.UTF_8), 5)));
    }
    return dir;
  }

  private static List<String> tail(List<String> lines, int n) {
    return lines.subList(Math.max(0, lines.size() - n), lines.size());
  }

  private static void requireTool(String tool) throws IOException, InterruptedException {
    try {
      Process p =
          new ProcessBuilder(tool, "--version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (p.waitFor() == 0) {
        return;
      }
    } catch (IOException e) {
      // reported below
    }
    throw new IOException(
        "'" + tool + "' is not on the PATH (graphile-worker needs Node.js and npm)");
  }
}
