package dev.drover.engine.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Outcome;
import dev.drover.ValidationException;
import dev.drover.model.DurationText;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one attempt of a command task: fills the task type's argv from the task's arguments, starts
 * it without a shell, keeps its stdout and stderr in the run directory, and maps how it ended to an
 * {@link Outcome} (see {@link CommandOutcomes}).
 *
 * <p>Output is read from pipes by a thread per stream that always reads on (a chatty process never
 * blocks on a full pipe) and keeps the last {@code outputCap} bytes of each in its file (see {@link
 * CappedLog}), so that output without end cannot fill the disk. Stdin is closed at once, so a
 * program that reads it sees end of input instead of waiting forever. Past the task type's timeout,
 * or when the calling thread is interrupted (a lost lease or a shutdown), the whole process tree is
 * killed (see {@link ProcessTree}).
 *
 * <p>Thread-safe and stateless: one instance serves every worker.
 */
public final class CommandExecutor {
  /** How long a killed process gets between SIGTERM and SIGKILL. */
  public static final Duration DEFAULT_KILL_GRACE = Duration.ofSeconds(2);

  /** The command's standard output, in the run directory. */
  public static final String STDOUT_FILE = "stdout.log";

  /** The command's standard error, in the run directory. */
  public static final String STDERR_FILE = "stderr.log";

  /** Most bytes of each of a run's stdout and stderr kept on disk: their tail. */
  public static final long DEFAULT_OUTPUT_CAP = 16L * 1024 * 1024;

  /**
   * How long the copy of a process's output may go on after it exited: a child it left behind may
   * hold the pipe open, and the run does not wait for that child.
   */
  private static final long OUTPUT_DRAIN_MILLIS = 2000;

  private static final Logger log = LoggerFactory.getLogger(CommandExecutor.class);

  private final Duration killGrace;
  private final long outputCap;

  /** An executor with {@link #DEFAULT_KILL_GRACE} and {@link #DEFAULT_OUTPUT_CAP}. */
  public CommandExecutor() {
    this(DEFAULT_KILL_GRACE);
  }

  /**
   * @param killGrace how long a process gets to exit after SIGTERM before SIGKILL; zero or more
   */
  public CommandExecutor(Duration killGrace) {
    this(killGrace, DEFAULT_OUTPUT_CAP);
  }

  /**
   * @param killGrace how long a process gets to exit after SIGTERM before SIGKILL; zero or more
   * @param outputCap most bytes of each output stream kept per run (the tail); at least 1024
   */
  public CommandExecutor(Duration killGrace, long outputCap) {
    Objects.requireNonNull(killGrace, "null killGrace");
    ValidationException.check(!killGrace.isNegative(), "kill_grace", "must not be negative");
    ValidationException.check(
        outputCap >= 1024, "output_cap", "must be at least 1024 bytes, got " + outputCap);
    this.killGrace = killGrace;
    this.outputCap = outputCap;
  }

  /**
   * Runs the command of {@code type} for a task and waits for it to end.
   *
   * @param type a task type with a command
   * @param arguments the task's arguments, which fill the command's placeholders
   * @param runDir where {@value #STDOUT_FILE} and {@value #STDERR_FILE} go; created if missing
   * @param extraEnv set over the inherited environment and the type's {@code env}, e.g. {@code
   *     DROVER_TASK_ID}; may be null
   * @return the outcome; a command that cannot be filled in or started is a failed outcome, and a
   *     timeout is a failed outcome with {@code timed_out: true}
   * @throws InterruptedException if the calling thread is interrupted; the process tree has been
   *     killed by then
   */
  public Outcome execute(
      TaskType type, TaskArguments arguments, Path runDir, Map<String, String> extraEnv)
      throws InterruptedException {
    if (type.command() == null) {
      throw new IllegalArgumentException("task type " + type.name() + " has no command");
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before starting " + type.name());
    }
    ProcessBuilder builder;
    try {
      builder = prepare(type, arguments, runDir, extraEnv);
    } catch (ValidationException | Unstartable e) {
      return Outcome.failed(e.getMessage());
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return Outcome.failed("cannot start '" + builder.command().get(0) + "': " + reason(e));
    }
    CappedLog stdout =
        CappedLog.start(process.getInputStream(), runDir.resolve(STDOUT_FILE), outputCap);
    CappedLog stderr =
        CappedLog.start(process.getErrorStream(), runDir.resolve(STDERR_FILE), outputCap);
    try {
      closeStdin(process);
      if (type.timeout() == null) {
        process.waitFor();
      } else if (!process.waitFor(type.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
        Outcome timedOut = timedOut(type, process);
        awaitOutput(stdout, stderr);
        return timedOut;
      }
      awaitOutput(stdout, stderr);
    } catch (InterruptedException e) {
      log.info(
          "task type {}: interrupted, killing pid {} and its descendants",
          type.name(),
          process.pid());
      ProcessTree.kill(process.toHandle(), killGrace);
      throw e;
    }
    Outcome outcome =
        CommandOutcomes.of(
            process.exitValue(), runDir.resolve(STDOUT_FILE), runDir.resolve(STDERR_FILE));
    return CommandSpawns.add(outcome, runDir.resolve(STDOUT_FILE), stdout.dropped() > 0);
  }

  private static void awaitOutput(CappedLog stdout, CappedLog stderr) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OUTPUT_DRAIN_MILLIS);
    stdout.awaitEnd(OUTPUT_DRAIN_MILLIS);
    stderr.awaitEnd(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
  }

  private static ProcessBuilder prepare(
      TaskType type, TaskArguments arguments, Path runDir, Map<String, String> extraEnv)
      throws Unstartable {
    List<String> argv = CommandTemplate.parse(type.command()).render(arguments);
    ProcessBuilder builder = new ProcessBuilder(argv);
    if (type.workingDir() != null) {
      Path dir;
      try {
        dir = Path.of(type.workingDir()).toAbsolutePath();
      } catch (InvalidPathException e) {
        throw new Unstartable("working directory '" + type.workingDir() + "' is not a valid path");
      }
      if (!Files.isDirectory(dir)) {
        throw new Unstartable("working directory " + dir + " does not exist");
      }
      builder.directory(dir.toFile());
    }
    try {
      builder.environment().putAll(type.env());
      if (extraEnv != null) {
        builder.environment().putAll(extraEnv);
      }
    } catch (IllegalArgumentException e) { // a name with '=' or a NUL, which the OS cannot take
      throw new Unstartable("bad environment variable: " + e.getMessage());
    }
    try {
      Files.createDirectories(runDir);
    } catch (IOException e) {
      throw new Unstartable("cannot create the run directory " + runDir + ": " + e);
    }
    return builder;
  }

  private Outcome timedOut(TaskType type, Process process) {
    String after = DurationText.format(type.timeout());
    log.warn(
        "task type {}: timed out after {}, killing pid {} and its descendants",
        type.name(),
        after,
        process.pid());
    ProcessTree.kill(process.toHandle(), killGrace);
    Outcome failed = Outcome.failed("timed out after " + after);
    ObjectNode result = failed.result();
    result.put("timed_out", true);
    try {
      // The tree is dead; this only waits for the JDK to collect the root's exit status.
      if (process.waitFor(1, TimeUnit.SECONDS)) {
        result.put("exit_code", process.exitValue());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new Outcome(failed.status(), result);
  }

  private static void closeStdin(Process process) {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // The process already exited or closed its end; there is nothing to tell it.
    }
  }

  /**
   * The OS's words from "Cannot run program "x": error=2, No such file or directory" (the JDK puts
   * them in the cause, prefixed with the errno).
   */
  private static String reason(IOException e) {
    String text = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
    return text == null ? e.toString() : text.replaceFirst("^error=\\d+, ", "");
  }

  /** A command that cannot be started for a reason found before trying. */
  private static final class Unstartable extends Exception {
    private static final long serialVersionUID = 1L;

    Unstartable(String message) {
      super(message);
    }
  }
}
