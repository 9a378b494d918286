package dev.drover.app;

import dev.drover.Drover;
import dev.drover.DroverException;
import dev.drover.config.ConfigFile;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerBuilder;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.RunnerStats;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;

/**
 * {@code drover demo}: the main job, offline. Mirrors three small local git repositories with a
 * recurring command task type on adaptive intervals, checksums the mirrors with a Java-handler
 * type, runs everything to completion in process and shows what happened. Safe to run again: files
 * and tasks are created once, and each run commits one more change to the same origin, so that
 * mirror's interval keeps shrinking while the others keep growing.
 */
@Command(
    name = "demo",
    subcommands = {DemoArchiveCommand.class},
    description = {
      "Run the example: mirror three local git repositories on adaptive intervals, checksum "
          + "the mirrors, show what happened.",
      "",
      "In the data directory's demo/ folder it creates three small git repositories (origins/) "
          + "and their "
          + "mirrors (mirrors/, git clone --mirror), writes demo/drover.yaml from "
          + "examples/drover.yaml with "
          + "absolute paths and applies it, and adds a recurring mirror-git task and a oneshot "
          + "checksum task per "
          + "mirror. Then it commits a change to one origin, runs the fetches and then the "
          + "checksums in process "
          + "until they are done, and shows each task's last run, its new interval and next "
          + "run, the checksums "
          + "and the status table. Offline; needs git. Run it again: each run commits one more "
          + "change, so the "
          + "intervals keep adapting, and adds nothing twice."
    })
final class DemoCommand extends BaseCommand {
  /** The folder of the data directory that holds the demo's files. */
  static final String FOLDER = "demo";

  static final String MIRROR_TYPE = "mirror-git";
  static final List<String> REPOS = List.of("alpha", "beta", "gamma");

  /** The origin that gets a new commit on every run, so that its mirror's fetch is eventful. */
  static final String CHANGED = "alpha";

  static final String SCRIPT = "mirror-fetch.sh";

  /** How examples/drover.yaml names the script; the demo's copy names it by its absolute path. */
  static final String SCRIPT_IN_EXAMPLES = ExampleFile.FOLDER + "/" + SCRIPT;

  /** How long the demo's runner lets work finish once the demo's own tasks are done. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private static final long WATCH_MS = 200;

  private final Clock clock = Clock.systemUTC();

  @Override
  public Integer call() throws InterruptedException {
    DemoRepos.requireGit();
    boolean existed = root().storeExists();
    PrintWriter out = out();
    try (Drover drover = root().open(true)) {
      Store store = drover.store();
      Path demo = demoFolder();
      out.println(
          (existed ? "using the store at " : "created a store at ") + root().location().describe());

      DemoRepos repos = new DemoRepos(demo);
      List<String> created = repos.createOrigins(REPOS);
      List<String> cloned = repos.cloneMirrors(REPOS);
      out.println("git repositories in " + demo + ":");
      out.println("  origins/  " + list(REPOS, created, "created with git init and git commit"));
      out.println(
          "  mirrors/  "
              + list(
                  REPOS.stream().map(r -> r + ".git").toList(),
                  cloned.stream().map(r -> r + ".git").toList(),
                  "cloned with git clone --mirror"));

      Path config = writeConfig(demo, root().shell());
      out.println("applied " + config + ":");
      ConfigApplyCommand.print(out, ConfigFile.read(config).applyTo(store));

      List<Task> tasks = addTasks(drover, repos, out);
      List<Long> mirrorIds = idsOf(tasks, MIRROR_TYPE);
      List<Long> checksumIds = idsOf(tasks, ChecksumHandler.TYPE);
      out.println(
          "committed to origins/"
              + CHANGED
              + ": "
              + repos.commitChange(CHANGED)
              + " (so its mirror has something new to fetch)");
      out.println();

      arm(store, mirrorIds);
      Map<Long, Task> before =
          store.taskGet(mirrorIds).stream().collect(Collectors.toMap(Task::id, t -> t));
      out.println(
          "running the mirror-git tasks: sh mirror-fetch.sh MIRROR runs git fetch and reports "
              + "eventful "
              + "when the mirror's refs changed...");
      out.println("  " + phase(runUntilDone(store, MIRROR_TYPE, mirrorIds)));
      arm(store, checksumIds);
      out.println(
          "running the checksum tasks: a Java handler sums each mirror's files with SHA-256...");
      out.println("  " + phase(runUntilDone(store, ChecksumHandler.TYPE, checksumIds)));
      out.println();

      new DemoReport(drover, clock.instant())
          .print(out, before, mirrorIds, checksumIds, RunnerSetup.runsDir(root()), cli());
    }
    return 0;
  }

  /**
   * How to call drover on this store: with --data-dir unless it is the default (or PostgreSQL is
   * used).
   */
  private String cli() {
    Path defaultDir = root().shell().resolve(StoreLocation.DEFAULT_DATA_DIR);
    boolean custom = root().location().isSqlite() && !root().dataDir().equals(defaultDir);
    return custom ? "drover --data-dir " + root().dataDir() : "drover";
  }

  private Path demoFolder() {
    Path demo = root().dataDir().resolve(FOLDER);
    try {
      Files.createDirectories(demo);
      return demo.toRealPath();
    } catch (IOException e) {
      throw new DroverException("cannot create the demo folder " + demo + ": " + e.getMessage(), e);
    }
  }

  /**
   * Copies the fetch script into the demo folder and writes demo/drover.yaml: examples/drover.yaml
   * with the script named by its absolute path, so the command works from any working directory.
   */
  private static Path writeConfig(Path demo, Shell shell) {
    try (ExampleFile yaml = ExampleFile.open(ConfigFile.DEFAULT_NAME, shell);
        ExampleFile script = ExampleFile.open(SCRIPT, shell)) {
      Path scriptCopy = demo.resolve(SCRIPT);
      Files.copy(script.path(), scriptCopy, StandardCopyOption.REPLACE_EXISTING);
      try {
        Files.setPosixFilePermissions(scriptCopy, PosixFilePermissions.fromString("rwxr-xr-x"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system; the command runs it with sh anyway
      }
      String quoted =
          "\"" + scriptCopy.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
      StringBuilder text =
          new StringBuilder(
              "# Written by 'drover demo' from "
                  + yaml.shownAs()
                  + ", with "
                  + SCRIPT_IN_EXAMPLES
                  + " replaced by its copy here.\n");
      for (String line : Files.readAllLines(yaml.path())) {
        boolean command = line.strip().startsWith("command:");
        text.append(command ? line.replace(SCRIPT_IN_EXAMPLES, quoted) : line).append('\n');
      }
      Path config = demo.resolve(ConfigFile.DEFAULT_NAME);
      Files.writeString(config, text);
      return config;
    } catch (IOException e) {
      throw new DroverException(
          "cannot write the demo's configuration in " + demo + ": " + e.getMessage(), e);
    }
  }

  /**
   * A recurring mirror-git task and a oneshot checksum task per mirror, each created once: a stored
   * task of the same type, arguments and policy is reused whatever its status (the store's own
   * de-duplication would add a second oneshot task, or a task matching one that is running now).
   */
  private static List<Task> addTasks(Drover drover, DemoRepos repos, PrintWriter out) {
    List<NewTask> wanted = new ArrayList<>();
    for (String name : REPOS) {
      wanted.add(
          NewTask.recurring(
              MIRROR_TYPE, TaskArguments.of(null, Map.of("path", repos.mirror(name).toString()))));
    }
    for (String name : REPOS) {
      wanted.add(
          NewTask.oneshot(
              ChecksumHandler.TYPE, TaskArguments.of(List.of("mirrors/" + name + ".git"), null)));
    }
    Map<String, Task> stored = new HashMap<>();
    for (Task t :
        drover.taskSearch(
            new TaskQuery(
                null,
                List.of(MIRROR_TYPE, ChecksumHandler.TYPE),
                null,
                null,
                null,
                null,
                null,
                null))) {
      stored.putIfAbsent(key(t.type(), t.arguments(), t.policy()), t);
    }
    List<NewTask> missing =
        wanted.stream()
            .filter(n -> !stored.containsKey(key(n.type(), n.arguments(), n.policy())))
            .toList();
    for (Task t : drover.taskCreate(missing)) {
      stored.put(key(t.type(), t.arguments(), t.policy()), t);
    }
    out.println(
        "tasks: a recurring mirror-git task and a oneshot checksum task per mirror: "
            + missing.size()
            + " added, "
            + (wanted.size() - missing.size())
            + " already present");
    return wanted.stream().map(n -> stored.get(key(n.type(), n.arguments(), n.policy()))).toList();
  }

  private static String key(String type, TaskArguments arguments, TaskPolicy policy) {
    return type + "\u0000" + arguments.toJson() + "\u0000" + policy.dbName();
  }

  /**
   * Makes the demo's tasks due now, so that they run in this demo whatever their schedule says:
   * waiting and completed ones get next_run = now, disabled ones are enabled. Claimed ones (running
   * somewhere) are left alone.
   */
  private void arm(Store store, List<Long> ids) {
    Instant now = clock.instant();
    List<Task> tasks = store.taskGet(ids);
    List<Long> waiting =
        tasks.stream()
            .filter(
                t ->
                    t.status() == TaskStatus.NEXT_RUN_NOT_SCHEDULED
                        || t.status() == TaskStatus.COMPLETED)
            .map(Task::id)
            .toList();
    List<Long> disabled =
        tasks.stream().filter(t -> t.status() == TaskStatus.DISABLED).map(Task::id).toList();
    if (!waiting.isEmpty()) {
      store.taskSetStatus(waiting, TaskStatus.NEXT_RUN_NOT_SCHEDULED, now, false, now);
    }
    if (!disabled.isEmpty()) {
      store.taskEnable(disabled, now);
    }
  }

  /**
   * Runs the tasks of {@code type} in process until idle. A watcher stops the runner early once the
   * demo's own tasks have each ended a run, so a failure waiting for its retry delay does not keep
   * the demo waiting too.
   */
  private RunnerStats runUntilDone(Store store, String type, List<Long> ids)
      throws InterruptedException {
    RunnerOptions options =
        RunnerOptions.defaults(RunnerSetup.runsDir(root()))
            .withTotalWorkers(RunnerSetup.totalWorkers(null, store))
            .withTypes(Set.of(type));
    Runner runner =
        new RunnerBuilder(store, options.runsDir())
            .clock(clock)
            .options(options)
            .handlers(RunnerSetup.handlers(root().dataDir()))
            .commands(RunnerSetup.commands())
            .build();
    return RunUntil.done(runner, () -> done(store, ids), WATCH_MS, STOP_GRACE, "drover-demo-watch");
  }

  /** True when none of the tasks is due or claimed. */
  private boolean done(Store store, List<Long> ids) {
    Instant now = clock.instant();
    return store.taskGet(ids).stream()
        .allMatch(
            t ->
                switch (t.status()) {
                  case COMPLETED, DISABLED, PAUSED -> true;
                  case NEXT_RUN_NOT_SCHEDULED -> t.nextRun().isAfter(now);
                  case NEXT_RUN_SCHEDULED, WAITING_FOR_CHILDREN -> false;
                });
  }

  private static String phase(RunnerStats s) {
    return s.claimed()
        + " claimed: "
        + s.eventful()
        + " eventful, "
        + s.uneventful()
        + " uneventful, "
        + s.failed()
        + " failed";
  }

  private static List<Long> idsOf(List<Task> tasks, String type) {
    return tasks.stream().filter(t -> t.type().equals(type)).map(Task::id).toList();
  }

  private static String list(List<String> all, List<String> made, String how) {
    String state =
        made.isEmpty()
            ? "already there"
            : made.size() == all.size() ? how : made.size() + " " + how;
    return String.join(", ", all) + " (" + state + ")";
  }
}
