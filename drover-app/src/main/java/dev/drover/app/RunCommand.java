package dev.drover.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.TaskHandler;
import dev.drover.ValidationException;
import dev.drover.config.ConfigFile;
import dev.drover.config.ConfigReport;
import dev.drover.engine.CommandRunner;
import dev.drover.engine.ProcessIdentity;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.RunnerStats;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code drover run}: claims due tasks and executes them until idle, or until stopped with
 * --daemon.
 */
@Command(
    name = "run",
    sortOptions = false,
    description = {
      "Claim due tasks and execute them: command task types run their command, built-in Java "
          + "handlers "
          + "(checksum) run in process.",
      "",
      "Without --daemon it exits 0 once nothing is due, running or waiting for a retry (the "
          + "next regular "
          + "run of a recurring task does not hold it) and prints what it did. With --daemon "
          + "it runs until "
          + "stopped. SIGTERM or Ctrl-C stops claiming, lets running work finish within "
          + "--grace, then gives "
          + "back what is left without charging an attempt, and exits 0. The configuration "
          + "file is applied "
          + "first, as 'drover init' does. Lifecycle lines go to stderr; on a terminal a "
          + "progress line "
          + "shows, per task type, the tasks due and running and the runs done and failed.",
      "",
      "One data dir has one active runner. A second 'drover run' on it takes over: the active "
          + "runner is asked "
          + "to stop, gets --takeover-grace to finish its work (then it is killed, if on this "
          + "host), and the "
          + "newcomer starts once it is gone. With --standby the newcomer waits instead, and "
          + "starts when the "
          + "active runner has gone. A runner killed outright never blocks its successor.",
      "",
      "The configuration file is re-applied when it changes, or on SIGHUP: task types, worker "
          + "groups and "
          + "limits.total_workers (unless --workers is given) take effect without dropping "
          + "running work."
    })
final class RunCommand extends BaseCommand {
  private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

  @Option(
      names = "--daemon",
      description = "Keep running when idle, until stopped (SIGTERM, Ctrl-C).")
  boolean daemon;

  @Mixin RunnerFlags flags;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      description =
          "Run only tasks of this type (repeatable, or comma-separated). Default: every type "
              + "with a "
              + "command or a built-in handler.")
  List<String> types;

  @Option(
      names = "--claim-ahead",
      paramLabel = "DURATION",
      defaultValue = "100ms",
      description =
          "Beyond its free worker slots, keep claimed as many tasks of a type as the workers "
              + "finished of it in this window, or would finish in it at the pace they ran its "
              + "latest tasks, so short tasks run back to back while the runner writes the last "
              + "batch. 0 claims for free slots only. Default: ${DEFAULT-VALUE}.")
  String claimAhead;

  @Mixin JsonOption output;

  @Mixin ConfigFileOption configOption;

  @Mixin HandlersJarOption handlersJar;

  @Override
  public Integer call() throws InterruptedException {
    Integer workers = flags.workers();
    Duration graceTime = flags.grace();
    Duration takeoverTime = flags.takeoverGrace();
    Duration claimAheadTime = Inputs.duration("--claim-ahead", claimAhead);
    ValidationException.check(
        !claimAheadTime.isNegative(), "--claim-ahead", "must not be negative, got " + claimAhead);
    Set<String> only =
        new LinkedHashSet<>(
            Inputs.each(
                "--type",
                types,
                (option, text) -> {
                  ValidationException.check(
                      !text.isEmpty(), option, "a task type name is required");
                  return text;
                }));
    Path configPath = configOption.file(root());
    ConfigFile config = configPath == null ? null : ConfigFile.read(configPath);
    Map<String, TaskHandler> handlers = handlersJar.handlers(root().dataDir());
    CommandRunner commands = RunnerSetup.commands();
    GracefulStop stop = null;
    try (Drover drover = root().open(config != null)) {
      Store store = drover.store();
      checkTypes(only, store, config, handlers);
      if (config != null) {
        ConfigReport r = config.applyTo(store);
        log.info(
            "applied {}: {} created, {} updated, {} unchanged",
            configPath,
            r.created(),
            r.updated(),
            r.unchanged());
      }
      // Types the --handlers-jar jars handle are executable here, though status cannot know it.
      Map<String, TaskHandler> known = handlers;
      List<String> unexecutable =
          RunnerSetup.unexecutable(store.taskTypeList()).stream()
              .filter(name -> !known.containsKey(name))
              .toList();
      if (only.isEmpty() && !unexecutable.isEmpty()) {
        log.warn(RunnerSetup.unexecutableWarning(unexecutable));
      }
      RunnerOptions options =
          RunnerOptions.defaults(RunnerSetup.runsDir(root()))
              .withTotalWorkers(RunnerSetup.totalWorkers(workers, store))
              .withExitOnIdle(!daemon)
              .withTypes(only)
              .withGate(gate(), takeoverTime, flags.standby())
              .withConfigFile(configPath, workers != null)
              .withClaimAhead(claimAheadTime);
      Clock clock = Clock.systemUTC();
      RunProgress progress =
          System.console() != null && !output.json ? new RunProgress(store, clock, out()) : null;
      if (progress != null) {
        handlers = progress.counting(handlers);
        commands = progress.counting(commands);
      }
      Runner runner =
          drover
              .runner(options.runsDir())
              .clock(clock)
              .options(options)
              .handlers(handlers)
              .commands(commands)
              .build();
      log.info("run output goes to {}", options.runsDir());
      Instant started = clock.instant();
      stop = GracefulStop.install(runner, graceTime);
      ReloadSignal.install(runner);
      RunnerStats stats;
      if (progress != null) {
        progress.start(executable(store, handlers, only), runner.stats(), runner::waiting);
      }
      try {
        stats = runner.run();
      } finally {
        if (progress != null) {
          progress.close();
        }
      }
      Duration took = Duration.between(started, clock.instant());
      if (output.json) {
        JsonViews.print(out(), json(stats, why(stop, runner), took));
      } else {
        out().println(summary(stats, why(stop, runner), took));
      }
      out().flush();
      stop.succeeded();
    } finally {
      if (stop != null) {
        stop.close();
      }
    }
    return 0;
  }

  /**
   * Every --type must name a type that exists (or the configuration declares) and that something
   * can execute.
   */
  private static void checkTypes(
      Set<String> only, Store store, ConfigFile config, Map<String, TaskHandler> handlers) {
    Map<String, TaskType> known = new LinkedHashMap<>();
    store.taskTypeList().forEach(t -> known.put(t.name(), t));
    if (config != null) {
      config.taskTypes().forEach(t -> known.put(t.name(), t));
    }
    for (String name : only) {
      TaskType type = known.get(name);
      ValidationException.check(type != null, "--type", "unknown task type '" + name + "'");
      ValidationException.check(
          type.command() != null || handlers.containsKey(name),
          "--type",
          "task type '"
              + name
              + "' has no command and no built-in handler, so nothing can execute it");
    }
  }

  /**
   * The types the runner will claim: those in {@code only} (all when empty) that something can
   * execute.
   */
  private static List<String> executable(
      Store store, Map<String, TaskHandler> handlers, Set<String> only) {
    return store.taskTypeList().stream()
        .filter(t -> only.isEmpty() || only.contains(t.name()))
        .filter(t -> t.command() != null || handlers.containsKey(t.name()))
        .map(TaskType::name)
        .toList();
  }

  /** The gate of this data dir on this host: one active runner each. */
  private String gate() {
    Path dir = root().dataDir().toAbsolutePath().normalize();
    return ProcessIdentity.current().host() + ":" + dir;
  }

  /** Why the runner stopped: a signal, a takeover (or pruning), or idleness; null for idle. */
  private static String why(GracefulStop stop, Runner runner) {
    return stop.signalled() ? "stopped on request" : runner.stopReason();
  }

  static String summary(RunnerStats s, String stopReason, Duration took) {
    String why =
        stopReason != null ? stopReason : "idle: nothing due, running or waiting for a retry";
    return String.format(
        Locale.ROOT,
        "drover run: %s after %.1fs. Claimed %d %s: %d eventful, %d uneventful, "
            + "%d failed; %d rescued from expired leases, %d released unfinished, %d leases lost.",
        why,
        took.toMillis() / 1000.0,
        s.claimed(),
        s.claimed() == 1 ? "task" : "tasks",
        s.eventful(),
        s.uneventful(),
        s.failed(),
        s.rescued(),
        s.released(),
        s.leasesLost());
  }

  private static ObjectNode json(RunnerStats s, String stopReason, Duration took) {
    ObjectNode o = Json.object();
    o.put("stopped", stopReason != null ? stopReason : "idle");
    o.put("seconds", took.toMillis() / 1000.0);
    o.put("claimed", s.claimed());
    o.put("eventful", s.eventful());
    o.put("uneventful", s.uneventful());
    o.put("failed", s.failed());
    o.put("rescued", s.rescued());
    o.put("released", s.released());
    o.put("leases_lost", s.leasesLost());
    return o;
  }
}
