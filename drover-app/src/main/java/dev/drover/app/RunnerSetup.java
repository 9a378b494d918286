package dev.drover.app;

import dev.drover.TaskHandler;
import dev.drover.engine.CommandRunner;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.command.CommandExecutor;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    Map<String, TaskHandler> all = new HashMap<>();
    all.put(
        ChecksumHandler.TYPE,
        new ChecksumHandler(dataDir.resolve(DemoCommand.FOLDER).toAbsolutePath()));
    all.putAll(
        ArchiveHandlers.all(dataDir.resolve(ArchiveSite.FOLDER).toAbsolutePath().normalize()));
    return Map.copyOf(all);
  }

  /** The names of the task types {@link #handlers} executes; a type needs one or a command. */
  static final Set<String> HANDLER_TYPES =
      Set.of(
          ChecksumHandler.TYPE,
          ArchiveHandlers.CRAWL,
          ArchiveHandlers.SNAPSHOT,
          ArchiveHandlers.RESULT);

  /** True if {@code drover run} can execute tasks of {@code type}. */
  static boolean executable(TaskType type) {
    return type.command() != null || HANDLER_TYPES.contains(type.name());
  }

  /** The names of the types among {@code types} that {@code drover run} cannot execute, sorted. */
  static List<String> unexecutable(List<TaskType> types) {
    return types.stream().filter(t -> !executable(t)).map(TaskType::name).sorted().toList();
  }

  /** What status and run say about {@code names} (not empty): why their tasks never run. */
  static String unexecutableWarning(List<String> names) {
    return "task type"
        + (names.size() == 1 ? " " : "s ")
        + String.join(", ", names)
        + " ha"
        + (names.size() == 1 ? "s" : "ve")
        + " no command and no built-in handler: drover run never executes "
        + (names.size() == 1 ? "its" : "their")
        + " tasks (give the type a command)";
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
