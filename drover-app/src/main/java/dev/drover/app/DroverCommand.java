package dev.drover.app;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The root {@code drover} command: holds the global options, which every subcommand inherits, and
 * opens the store they name.
 */
@Command(
    name = "drover",
    scope = ScopeType.INHERIT,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Drover, a durable task scheduler.",
      "",
      "Task types, tasks and their runs are kept in a store: an embedded SQLite database in a data "
          + "directory (the default), or PostgreSQL (--db). Bad input exits with code 2 and "
          + "changes nothing; "
          + "other failures exit with code 1."
    },
    subcommands = {
      InitCommand.class,
      DemoCommand.class,
      RunCommand.class,
      ServeCommand.class,
      ConfigCommand.class,
      TaskTypeCommand.class,
      TaskCommand.class,
      TaskRunCommand.class,
      StatusCommand.class,
      ArchiveCommand.class,
      EventsCommand.class,
      RunnersCommand.class,
      ListerCommand.class,
      OriginCommand.class,
      VisitCommand.class,
      MetricsCommand.class,
      CompletionCommand.class,
      HelpCommand.class
    })
public final class DroverCommand {
  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      scope = ScopeType.INHERIT,
      description =
          "Data directory holding the embedded store (drover.db). Default: ./drover-data.")
  private Path dataDir = StoreLocation.DEFAULT_DATA_DIR;

  // Not defaultValue = "${env:DROVER_DB}": picocli would read the JVM's environment, not the
  // shell's (see location()).
  @Option(
      names = "--db",
      paramLabel = "URL",
      scope = ScopeType.INHERIT,
      description =
          "PostgreSQL JDBC URL (jdbc:postgresql://HOST/DB?user=...); wins over --data-dir. "
              + "Default: the DROVER_DB environment variable.")
  private String db;

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "Show stack traces of errors, and debug lines in the log.")
  private boolean verbose;

  private final Shell shell;

  public DroverCommand() {
    this(Shell.system());
  }

  DroverCommand(Shell shell) {
    this.shell = shell;
  }

  /** Where the command was started from: its working directory, environment and streams. */
  Shell shell() {
    return shell;
  }

  boolean verbose() {
    return verbose;
  }

  /**
   * The data directory as given (or the default), whichever store is used: it also holds the demo's
   * files.
   */
  Path dataDir() {
    return shell.resolve(dataDir);
  }

  /** The store the options name; validates a database URL without connecting. */
  StoreLocation location() {
    try {
      return StoreLocation.of(dataDir(), db != null ? db : shell.env("DROVER_DB"));
    } catch (ValidationException e) {
      throw asOption(e);
    }
  }

  /**
   * True if the store exists already (always assumed for PostgreSQL, which init migrates in place);
   * an empty drover.db file is none.
   */
  boolean storeExists() {
    StoreLocation location = location();
    if (!location.isSqlite()) {
      return true;
    }
    // A zero-byte file holds no store: init makes one in it (other commands refuse it).
    Path db = location.dataDir().resolve(StoreLocation.DATABASE_FILE);
    try {
      return Files.isRegularFile(db) && Files.size(db) > 0;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Opens the store. Only commands that set things up ({@code create}) may create a missing
   * embedded store; the others refuse, so a typo in --data-dir never leaves an empty store behind.
   */
  Drover open(boolean create) {
    StoreLocation location = location();
    if (location.isSqlite()) {
      refuseUnusable(location.dataDir(), create);
    }
    if (location.isSqlite() && !create && !storeExists()) {
      Path dir = location.dataDir();
      ValidationException.check(
          !Files.exists(dir) || Files.isDirectory(dir),
          "--data-dir",
          "'" + dir + "' exists and is not a directory");
      throw new ValidationException(
          "--data-dir",
          "no Drover store in '"
              + dir
              + "' (run 'drover init' first, or point --data-dir or --db at a store)");
    }
    try {
      return Drover.open(location);
    } catch (ValidationException e) {
      throw asOption(e);
    }
  }

  /**
   * Names what makes a data dir unusable before anything opens it: a directory this process may not
   * enter reads as "no store" otherwise, and a zero-byte drover.db would silently become a new
   * empty store (SQLite makes a database of an empty file), hiding that the store was lost.
   */
  private static void refuseUnusable(Path dir, boolean create) {
    if (Files.isDirectory(dir) && !(Files.isReadable(dir) && Files.isExecutable(dir))) {
      throw new ValidationException(
          "--data-dir", "permission denied: cannot read the directory '" + dir + "'");
    }
    Path db = dir.resolve(StoreLocation.DATABASE_FILE);
    if (Files.isDirectory(db)) {
      throw new ValidationException(
          "--data-dir", "'" + db + "' is a directory, not a database file");
    }
    if (Files.exists(db) && !Files.isReadable(db)) {
      throw new ValidationException("--data-dir", "permission denied: cannot read '" + db + "'");
    }
    try {
      if (!create && Files.isRegularFile(db) && Files.size(db) == 0) {
        throw new ValidationException(
            "--data-dir",
            "'"
                + db
                + "' is empty (0 bytes), not a Drover store: restore it from a backup, or delete"
                + " it and run 'drover init'");
      }
    } catch (IOException e) {
      throw new ValidationException("--data-dir", "cannot read '" + db + "': " + e.getMessage());
    }
  }

  // The core names the store settings "data-dir" and "db"; on the command line they are options.
  private static ValidationException asOption(ValidationException e) {
    if (e.field().equals("data-dir") || e.field().equals("db")) {
      return new ValidationException("--" + e.field(), ErrorHandler.problem(e));
    }
    return e;
  }
}
