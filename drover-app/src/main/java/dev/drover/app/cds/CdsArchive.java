package dev.drover.app.cds;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the class-data archive ({@code drover.jsa}) of the shaded jar, which the {@code drover}
 * launcher hands to the JVM ({@code -XX:SharedArchiveFile}) so that a command starts from
 * pre-parsed, pre-verified classes of the JDK and of Drover: about half of a short command's
 * start-up. The build runs it after packaging: {@code java -cp drover.jar
 * dev.drover.app.cds.CdsArchive JAR ARCHIVE}.
 *
 * <p>It is a static archive ({@code -Xshare:dump} of the classes that {@link CdsTraining} loaded),
 * not a dynamic one ({@code -XX:ArchiveClassesAtExit}): JDK 17 leaves picocli's Java 5 classes out
 * of a dynamic archive, but keeps them in a static one (see {@link #keepPicocliUnlinked}).
 *
 * <p>Why it takes these steps: the JVM maps the archive without reading it through, so a truncated
 * archive crashes it (SIGBUS) instead of being refused. So the archive is dumped to a temporary
 * name, tried once with {@code -Xshare:on} (which fails rather than run without it), and only then
 * renamed into place, followed by a stamp ({@link CdsStamp}) that the launcher compares with the
 * jar and the archive before it uses the archive. A jar rebuilt or replaced since no longer matches
 * its stamp, so a stale archive is never used; the JVM checks that too, by the jar's size and time.
 *
 * <p>Failures are warnings, not a failed build: without an archive the launcher runs as before.
 */
public final class CdsArchive {
  private static final long STEP_TIMEOUT_SECONDS = 120;

  private CdsArchive() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: CdsArchive JAR ARCHIVE");
      System.exit(2);
    }
    Path jar = Path.of(args[0]).toAbsolutePath();
    Path archive = Path.of(args[1]).toAbsolutePath();
    Path stamp = CdsStamp.fileFor(archive);
    if (CdsStamp.matches(stamp, jar, archive)) {
      return;
    }
    Files.deleteIfExists(stamp);
    Files.deleteIfExists(archive);
    Path temp = archive.resolveSibling(archive.getFileName() + ".tmp");
    Files.deleteIfExists(temp);
    try {
      String problem = build(jar, temp);
      if (problem != null) {
        System.err.println("warning: no class-data archive for " + jar + ": " + problem);
        return;
      }
      Files.move(temp, archive, StandardCopyOption.ATOMIC_MOVE);
      CdsStamp.write(stamp, jar, archive);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Dumps and tries the archive at {@code temp}; returns what went wrong, or null. */
  private static String build(Path jar, Path temp) throws IOException, InterruptedException {
    Path tmpDir = temp.getParent();
    Path classList = temp.resolveSibling(temp.getFileName() + ".classlist");
    try {
      String trained =
          run(
              tmpDir,
              List.of(
                  "-XX:DumpLoadedClassList=" + classList,
                  // The training's own temporary files stay in the build directory.
                  "-Djava.io.tmpdir=" + tmpDir,
                  "-cp",
                  jar.toString(),
                  CdsTraining.class.getName()));
      if (trained != null) {
        return "the training run failed: " + trained;
      }
      keepPicocliUnlinked(classList);
      String dumped =
          run(
              tmpDir,
              List.of(
                  "-Xshare:dump",
                  "-XX:SharedClassListFile=" + classList,
                  "-XX:SharedArchiveFile=" + temp,
                  "-cp",
                  jar.toString()));
      if (dumped != null || !Files.isRegularFile(temp)) {
        return "the dump failed: " + dumped;
      }
    } finally {
      Files.deleteIfExists(classList);
    }
    String tried =
        run(
            tmpDir,
            List.of(
                "-XX:SharedArchiveFile=" + temp,
                "-Xshare:on",
                "-cp",
                jar.toString(),
                "dev.drover.app.Main",
                "--version"));
    return tried == null ? null : "the JVM refuses the archive: " + tried;
  }

  /**
   * Drops the class list's lambdas that implement or call picocli. Why: picocli ships Java 5 class
   * files, which JDK 17 archives only unlinked, and resolving such a lambda at dump time links its
   * picocli interface, which then leaves that interface, and every class using it, out of the
   * archive: about a third of a short command's class loading. The lambdas themselves are cheap to
   * make at run time.
   */
  private static void keepPicocliUnlinked(Path classList) throws IOException {
    List<String> lines = Files.readAllLines(classList, StandardCharsets.UTF_8);
    lines.removeIf(line -> line.startsWith("@lambda-proxy") && line.contains("picocli/"));
    Files.write(classList, lines, StandardCharsets.UTF_8);
  }

  /**
   * Runs this JVM's {@code java} with {@code args}, its output kept in {@code dir} meanwhile;
   * returns that output if it failed, or null.
   */
  private static String run(Path dir, List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(args);
    Path log = Files.createTempFile(dir, "drover-cds", ".log");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      process.getOutputStream().close();
      if (!process.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return "no end after " + STEP_TIMEOUT_SECONDS + " s";
      }
      return process.exitValue() == 0
          ? null
          : "exit " + process.exitValue() + "\n" + Files.readString(log, StandardCharsets.UTF_8);
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
