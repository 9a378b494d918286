package dev.drover.app;

import dev.drover.Drover;
import dev.drover.DroverException;
import dev.drover.engine.ProcessIdentity;
import dev.drover.engine.RunnerOptions;
import dev.drover.model.RunnerRecord;
import dev.drover.store.StoreLocation;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code task add --ensure-runner}: makes sure a runner will pick the task up. If a runner of this
 * store is alive, that is all; otherwise a {@code drover run} is started in the background, which
 * exits once nothing is due, running or waiting for a retry. Two such calls at once may start two
 * runners: the runner gate lets one work and the other take over or leave.
 */
final class BackgroundRunner {
  private BackgroundRunner() {}

  /** What was done, in one line for a person. */
  static String ensure(Drover drover, DroverCommand root) {
    Optional<RunnerRecord> alive = alive(drover, drover.now());
    if (alive.isPresent()) {
      return "runner " + alive.get().name() + " is alive and will run it";
    }
    Path log = RunnerSetup.runsDir(root).resolve("runner.log");
    Process process = start(root, log);
    return "started a background runner (pid "
        + process.pid()
        + ") that exits when nothing is left to do; its log: "
        + log;
  }

  /** A runner that is alive: its process on this host, or its heartbeat recent elsewhere. */
  private static Optional<RunnerRecord> alive(Drover drover, Instant now) {
    ProcessIdentity me = ProcessIdentity.current();
    return drover.store().runners().list().stream()
        .filter(
            r ->
                me.sameHost(r)
                    ? ProcessIdentity.alive(r).isPresent()
                    : !r.heartbeat().plus(RunnerOptions.DEFAULT_RUNNER_TIMEOUT).isBefore(now))
        .findFirst();
  }

  /**
   * Starts this program's {@code run} on the same store, as a process of its own that outlives this
   * one. The PostgreSQL URL goes through the environment, not the command line, where any user's
   * {@code ps} would show its password.
   */
  private static Process start(DroverCommand root, Path log) {
    StoreLocation location = root.location();
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    if (location.dataDir() != null) {
      command.add("--data-dir");
      command.add(location.dataDir().toAbsolutePath().toString());
    }
    command.add("run");
    ProcessBuilder builder = new ProcessBuilder(command);
    if (location.isSqlite()) {
      builder.environment().remove("DROVER_DB");
    } else {
      builder.environment().put("DROVER_DB", location.jdbcUrl());
    }
    Path workDir = root.shell().resolve(Path.of("")).toAbsolutePath();
    builder.directory(workDir.toFile());
    try {
      Files.createDirectories(log.getParent());
      builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      builder.redirectErrorStream(true);
      return builder.start();
    } catch (IOException e) {
      throw new DroverException("cannot start a background runner: " + e.getMessage(), e);
    }
  }
}
