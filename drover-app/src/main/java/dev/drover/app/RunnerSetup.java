package dev.drover.app;

import dev.drover.TaskHandler;
import dev.drover.engine.CommandRunner;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.command.CommandExecutor;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.util.Map;

/**
 * What {@code drover run} and {@code drover demo} build a runner from: where run output goes, the
 * Java handlers built into the CLI, the command executor and the worker total.
 */
final class RunnerSetup {
  /** The setting that {@code limits.total_workers} of a configuration file is stored as. */
  static final String TOTAL_WORKERS_SETTING = "limits.total_workers";

  /**
   * Where run output goes on PostgreSQL, which has no data directory: under the working directory.
   */
  static final Path POSTGRES_RUNS_DIR = Path.of("drover-runs");

  private RunnerSetup() {}

  /** {@code <data-dir>/runs} on SQLite, {@code ./drover-runs} on PostgreSQL; absolute. */
  static Path runsDir(DroverCommand root) {
    StoreLocation location = root.location();
    Path dir =
        location.isSqlite()
            ? location.dataDir().resolve("runs")
            : root.shell().resolve(POSTGRES_RUNS_DIR);
    return dir.toAbsolutePath().normalize();
  }

  /**
   * The built-in Java handlers by task type name; relative paths are read from the data dir's demo
   * folder.
   */
  static Map<String, TaskHandler> handlers(Path dataDir) {
    return Map.of(
        ChecksumHandler.TYPE,
        new ChecksumHandler(dataDir.resolve(DemoCommand.FOLDER).toAbsolutePath()));
  }

  static CommandRunner commands() {
    return new CommandExecutor()::execute;
  }

  /**
   * {@code --workers} if given, else the configured {@code limits.total_workers}, else the default.
   */
  static int totalWorkers(Integer option, Store store) {
    if (option != null) {
      return option;
    }
    String setting = store.settingList().get(TOTAL_WORKERS_SETTING);
    if (setting != null) {
      try {
        return Integer.parseInt(setting.trim());
      } catch (NumberFormatException e) {
        // config apply only stores positive integers; anything else is ignored
      }
    }
    return RunnerOptions.DEFAULT_TOTAL_WORKERS;
  }
}
