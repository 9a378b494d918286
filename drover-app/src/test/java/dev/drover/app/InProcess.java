package dev.drover.app;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one {@code drover} command in this JVM, as {@code java -jar drover.jar} would in a new one:
 * through {@link Main#run(Shell, String...)}, which returns the exit code instead of exiting, from
 * a working directory and with an environment of the test's choosing.
 *
 * <p>What the command prints to stdout and stderr is captured, and so are its log lines: the CLI
 * logs through slf4j-simple to {@code System.err}, looked up at every line, so {@code System.out}
 * and {@code System.err} point at the capture while the command runs. Those two are global, so one
 * command runs at a time.
 */
final class InProcess {
  private InProcess() {}

  /** Runs {@code args} and returns what it printed and its exit code; fails after the timeout. */
  static synchronized DroverCli.Result run(
      Path workDir, Map<String, String> env, long timeoutSeconds, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    Shell shell = new Shell(workDir, env, outStream, errStream);
    PrintStream systemOut = System.out;
    PrintStream systemErr = System.err;
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "drover-cli");
              t.setDaemon(true);
              return t;
            });
    System.setOut(outStream);
    System.setErr(errStream);
    try {
      Future<Integer> code = thread.submit(() -> Main.run(shell, args));
      int exit = code.get(timeoutSeconds, TimeUnit.SECONDS);
      return new DroverCli.Result(
          exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } catch (TimeoutException e) {
      throw new AssertionError(
          "drover "
              + Arrays.toString(args)
              + " did not finish in "
              + timeoutSeconds
              + "s\nstdout:\n"
              + out.toString(StandardCharsets.UTF_8)
              + "\nstderr:\n"
              + err.toString(StandardCharsets.UTF_8),
          e);
    } catch (ExecutionException e) {
      throw new AssertionError("drover " + Arrays.toString(args) + " threw", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      thread.shutdownNow();
      System.setOut(systemOut);
      System.setErr(systemErr);
    }
  }
}
