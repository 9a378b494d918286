package dev.drover.app;

import dev.drover.DroverException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo's git repositories, all local: small origins under {@code origins/} made with {@code git
 * init} and {@code git commit}, and their mirrors under {@code mirrors/} made with {@code git clone
 * --mirror}. Git runs as argv, never through a shell, with an author and committer set in its
 * environment so that commits work on a machine where git was never configured.
 */
final class DemoRepos {
  private static final Map<String, String> GIT_ENV =
      Map.of(
          "GIT_AUTHOR_NAME", "Drover demo",
          "GIT_AUTHOR_EMAIL", "demo@drover.invalid",
          "GIT_COMMITTER_NAME", "Drover demo",
          "GIT_COMMITTER_EMAIL", "demo@drover.invalid",
          "GIT_TERMINAL_PROMPT", "0");

  private final Path dir;

  /** The repositories under {@code dir}, the demo folder. */
  DemoRepos(Path dir) {
    this.dir = dir;
  }

  Path origin(String name) {
    return dir.resolve("origins").resolve(name);
  }

  Path mirror(String name) {
    return dir.resolve("mirrors").resolve(name + ".git");
  }

  /** Fails with a plain message when git cannot be run at all. */
  static void requireGit() {
    try {
      git(Path.of("").toAbsolutePath(), "--version");
    } catch (DroverException e) {
      throw new DroverException(
          "the demo mirrors git repositories, and git cannot be run: " + e.getMessage(), e);
    }
  }

  /** Creates each origin that is missing, with one commit; returns the names created. */
  List<String> createOrigins(List<String> names) {
    List<String> created = new ArrayList<>();
    for (String name : names) {
      Path origin = origin(name);
      if (Files.isDirectory(origin.resolve(".git"))) {
        continue;
      }
      write(
          origin.resolve("README.md"),
          "# " + name + "\n\nA small repository that `drover demo` mirrors.\n",
          false);
      git(origin, "-c", "init.defaultBranch=main", "init", "-q");
      git(origin, "add", "-A");
      commit(origin, "Start " + name);
      created.add(name);
    }
    return created;
  }

  /** Clones a mirror of each origin whose mirror is missing; returns the names cloned. */
  List<String> cloneMirrors(List<String> names) {
    List<String> cloned = new ArrayList<>();
    for (String name : names) {
      Path mirror = mirror(name);
      if (Files.exists(mirror)) {
        continue;
      }
      createDirectories(mirror.getParent());
      git(
          mirror.getParent(),
          "clone",
          "--mirror",
          "-q",
          origin(name).toString(),
          mirror.toString());
      cloned.add(name);
    }
    return cloned;
  }

  /** Commits one more change to an origin; returns the commit's short hash and subject. */
  String commitChange(String name) {
    Path origin = origin(name);
    String count = git(origin, "rev-list", "--count", "HEAD").strip();
    String subject = "Change " + (Long.parseLong(count) + 1) + " to " + name;
    write(
        origin.resolve("CHANGES.md"),
        "- " + subject + " at " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\n",
        true);
    git(origin, "add", "-A");
    commit(origin, subject);
    return git(origin, "log", "-1", "--format=%h %s").strip();
  }

  private static void commit(Path repo, String message) {
    // The user's own settings must not get in the way: no signing prompt, no hooks.
    git(
        repo,
        "-c",
        "commit.gpgsign=false",
        "-c",
        "core.hooksPath=/dev/null",
        "commit",
        "-q",
        "-m",
        message);
  }

  /**
   * Runs git in {@code workDir} and returns its output; fails with git's last line when it fails.
   */
  private static String git(Path workDir, String... args) {
    List<String> argv = new ArrayList<>(List.of("git"));
    argv.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(argv).directory(workDir.toFile()).redirectErrorStream(true);
    pb.environment().putAll(GIT_ENV);
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int code = p.waitFor();
      if (code != 0) {
        List<String> lines = output.strip().lines().toList();
        throw new DroverException(
            "'"
                + String.join(" ", argv)
                + "' in "
                + workDir
                + " exited "
                + code
                + (lines.isEmpty() ? "" : ": " + lines.get(lines.size() - 1)));
      }
      return output;
    } catch (IOException e) {
      throw new DroverException("cannot run git: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DroverException("interrupted while running git", e);
    }
  }

  private static void write(Path file, String text, boolean append) {
    createDirectories(file.getParent());
    try {
      if (append) {
        Files.writeString(
            file,
            text,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } else {
        Files.writeString(file, text, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new DroverException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static void createDirectories(Path d) {
    try {
      Files.createDirectories(d);
    } catch (IOException e) {
      throw new DroverException("cannot create " + d + ": " + e.getMessage(), e);
    }
  }
}
