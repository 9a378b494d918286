package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.model.DurationText;
import dev.drover.model.RunHistory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The bench command: starts its own databases, runs each workload on each system and database, and
 * writes results.json, results.md and results.svg. See docs/benchmarks.md.
 */
@Command(
    name = "drover-bench",
    sortOptions = false,
    description = "Runs Drover's benchmarks on an embedded PostgreSQL and a fresh SQLite file.")
public final class Bench implements Callable<Integer> {
  /** The systems under test by name; peers are added here. */
  static final Map<String, Supplier<SystemUnderTest>> SYSTEMS = new LinkedHashMap<>();

  /** The workloads by name, in the order they run. */
  static final Map<String, Workload> WORKLOADS = new LinkedHashMap<>();

  static {
    SYSTEMS.put(Ratios.DROVER, () -> new DroverSystem(Ratios.DROVER, RunHistory.ALL));
    SYSTEMS.put(
        DroverSystem.FAILURES_ONLY,
        () -> new DroverSystem(DroverSystem.FAILURES_ONLY, RunHistory.FAILURES));
    SYSTEMS.put(
        DbSchedulerSystem.NAME,
        () -> new DbSchedulerSystem(DbSchedulerSystem.NAME, DbSchedulerSystem.BEST));
    SYSTEMS.put(
        DbSchedulerSystem.README_DEFAULTS_NAME,
        () ->
            new DbSchedulerSystem(
                DbSchedulerSystem.README_DEFAULTS_NAME, DbSchedulerSystem.README_DEFAULTS));
    SYSTEMS.put(JobRunrSystem.NAME, JobRunrSystem::new);
    SYSTEMS.put(QuartzSystem.NAME, QuartzSystem::new);
    SYSTEMS.put(GraphileWorkerSystem.NAME, GraphileWorkerSystem::new);
    WORKLOADS.put(Pickup.NAME, new Pickup());
    WORKLOADS.put(Burndown.NAME, new Burndown());
    WORKLOADS.put(Contended.NAME, new Contended());
    WORKLOADS.put(Sustained.NAME, new Sustained());
    WORKLOADS.put(Scaling.NAME, new Scaling());
    WORKLOADS.put(DbCost.NAME, new DbCost());
    WORKLOADS.put(Frontier.NAME, new Frontier());
    WORKLOADS.put(Visits.NAME, new Visits());
  }

  @Spec CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help and exit.")
  boolean help;

  @Option(
      names = "--systems",
      split = ",",
      paramLabel = "NAME",
      description =
          "Systems to run, of: drover, drover-failures-only (a task type that keeps only failed "
              + "runs in its history), db-scheduler, db-scheduler-0.5-1, jobrunr, quartz, "
              + "graphile-worker. Default: all.")
  List<String> systems;

  @Option(
      names = "--db",
      split = ",",
      paramLabel = "DB",
      defaultValue = "sqlite,postgres",
      description = "Databases: sqlite, postgres. Default: ${DEFAULT-VALUE}.")
  List<String> dbs;

  @Option(
      names = "--workloads",
      split = ",",
      paramLabel = "NAME",
      defaultValue = "pickup,burndown,contended,sustained,scaling,dbcost",
      description =
          "Workloads: pickup, burndown, contended, sustained, scaling, dbcost; frontier and"
              + " visits (Drover only, not run by default). Default: ${DEFAULT-VALUE}.")
  List<String> workloads;

  @Option(
      names = "--samples",
      paramLabel = "N",
      description = "Pickup samples per system and database " + "(default 200, smoke 5).")
  Integer samples;

  @Option(
      names = "--tasks",
      paramLabel = "N",
      description = "Burn-down tasks (default 100000, smoke 1000).")
  Integer tasks;

  @Option(
      names = "--rate",
      paramLabel = "N",
      description = "Sustained: tasks enqueued per second " + "(default 100, smoke 20).")
  Integer rate;

  @Option(
      names = "--sustain-for",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Sustained: how long to enqueue (default 30s, smoke 1s).")
  Duration sustainFor;

  @Option(
      names = "--scale-sizes",
      split = ",",
      paramLabel = "N",
      description =
          "Scaling: queue sizes to burn down (default 10000,100000,1000000; smoke 100,200).")
  List<Integer> scaleSizes;

  @Option(
      names = "--scale-cap",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "Scaling: longest insert, and longest burn-down, per system and size (default 5m, "
              + "smoke 30s).")
  Duration scaleCap;

  @Option(
      names = "--cost-tasks",
      paramLabel = "N",
      description = "Database cost: tasks burnt down on PostgreSQL (default 10000, smoke 100).")
  Integer costTasks;

  @Option(
      names = "--origins",
      paramLabel = "N",
      description = "Listed origins of the frontier workload (default 1000000, smoke 5000).")
  Integer origins;

  @Option(
      names = "--grabs",
      paramLabel = "N",
      description = "Timed grabs per policy of the frontier workload (default 20, smoke 3).")
  Integer grabs;

  @Option(
      names = "--visit-for",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Visits: how long the queue is measured once warm (default 60s, smoke 3s).")
  Duration visitFor;

  @Option(
      names = "--workers",
      paramLabel = "N",
      defaultValue = "8",
      description = "Worker threads of each system. Default: ${DEFAULT-VALUE}.")
  int workers;

  @Option(
      names = "--poll-interval",
      paramLabel = "DURATION",
      defaultValue = "1s",
      converter = DurationConverter.class,
      description =
          "How often an idle runner polls (Drover's default is 1s). Default: ${DEFAULT-VALUE}.")
  Duration pollInterval;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "30m",
      converter = DurationConverter.class,
      description = "Longest wait for one pickup or one burn-down. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "Runs of each workload per system and database, the systems taking turns to go first;"
              + " each figure is reported as the median of the rounds, and each ratio with the"
              + " range and median of the ratios paired round by round. Default: ${DEFAULT-VALUE}.")
  int rounds;

  @Option(
      names = "--smoke",
      description = "Small N, for CI: checks that everything runs; the figures mean little.")
  boolean smoke;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "bench-results",
      description = "Where results.json, results.md and results.svg go. Default: ${DEFAULT-VALUE}.")
  Path out;

  private final PrintStream progress;
  private final String command;

  Bench(PrintStream progress, String command) {
    this.progress = progress;
    this.command = command;
  }

  public static void main(String[] args) {
    int code = commandLine(System.err, args).execute(args);
    System.exit(code);
  }

  /** The command line, progress going to {@code progress}; for main and the smoke test. */
  static CommandLine commandLine(PrintStream progress, String... args) {
    return new CommandLine(new Bench(progress, "drover-bench " + String.join(" ", args)));
  }

  @Override
  public Integer call() throws Exception {
    Map<String, String> serverSettings;
    try {
      serverSettings = Databases.serverSettings(System.getProperty(Databases.SERVER_SETTINGS, ""));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    List<String> systemNames =
        names(
            systems == null ? List.copyOf(SYSTEMS.keySet()) : systems,
            SYSTEMS.keySet(),
            "--systems");
    List<Kind> kinds = new ArrayList<>();
    for (String db : dbs) {
      try {
        kinds.add(Kind.parse(db));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--db: " + e.getMessage());
      }
    }
    List<Workload> chosen =
        names(workloads, WORKLOADS.keySet(), "--workloads").stream().map(WORKLOADS::get).toList();
    List<Integer> sizes =
        (scaleSizes != null
                ? scaleSizes
                : smoke ? List.of(100, 200) : List.of(10_000, 100_000, 1_000_000))
            .stream().map(n -> positive("--scale-sizes", n)).toList();
    Settings settings =
        new Settings(
            positive("--workers", workers),
            pollInterval,
            positive("--samples", samples != null ? samples : smoke ? 5 : 200),
            positive("--tasks", tasks != null ? tasks : smoke ? 1000 : 100_000),
            smoke ? 1 : Pickup.WARMUP,
            timeout,
            new Settings.Load(
                positive("--rate", rate != null ? rate : smoke ? 20 : 100),
                sustainFor != null
                    ? sustainFor
                    : smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(30),
                sizes,
                scaleCap != null
                    ? scaleCap
                    : smoke ? Duration.ofSeconds(30) : Duration.ofMinutes(5),
                // Smoke: the smallest size; the slow peers would take a minute over ten times it.
                smoke ? Collections.min(sizes) : Scaling.warmup(Collections.min(sizes)),
                positive("--cost-tasks", costTasks != null ? costTasks : smoke ? 100 : 10_000)),
            positive("--origins", origins != null ? origins : smoke ? 5000 : 1_000_000),
            positive("--grabs", grabs != null ? grabs : smoke ? 3 : 20),
            positive(
                "--visit-for",
                visitFor != null
                    ? visitFor
                    : smoke ? Duration.ofSeconds(3) : Duration.ofSeconds(60)));

    positive("--rounds", rounds);
    Instant startedAt = Instant.now();
    String loadBefore = Machine.loadAverage();
    List<Result> results = new ArrayList<>();
    Machine machine;
    Databases databases = Databases.temporary("drover-bench-", serverSettings);
    // An interrupted bench (Ctrl-C) skips the close below; its databases can be large.
    Path work = databases.workDir();
    Thread cleanup = new Thread(() -> Databases.deleteTree(work), "drover-bench-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try (databases) {
      for (Kind kind : kinds) {
        for (Workload workload : chosen) {
          List<String> running =
              systemNames.stream().filter(name -> runs(name, kind, workload)).toList();
          Map<String, List<Result>> byRound = new LinkedHashMap<>();
          running.forEach(name -> byRound.put(name, new ArrayList<>()));
          for (int round = 1; round <= rounds; round++) {
            for (String name : Rounds.order(running, round)) {
              if (rounds > 1) {
                progress.printf("round %d of %d: ", round, rounds);
              }
              // A new instance per run; one that is never opened holds nothing to close.
              byRound
                  .get(name)
                  .add(runOne(SYSTEMS.get(name).get(), kind, workload, databases, settings));
            }
          }
          byRound.values().forEach(each -> results.add(Rounds.combine(each)));
        }
      }
      machine = Machine.describe(databases, kinds);
    } finally {
      Runtime.getRuntime().removeShutdownHook(cleanup);
    }
    Report report =
        new Report(
            startedAt,
            command,
            smoke,
            settings,
            machine,
            loadBefore + " / " + Machine.loadAverage(),
            rounds,
            chosen,
            results);
    report.write(out);
    progress.println();
    progress.print(report.markdown());
    progress.println(
        "\nwrote " + out.resolve(Report.JSON) + ", " + Report.MARKDOWN + " and " + Report.SVG);
    return results.stream().allMatch(Result::ok) ? 0 : 1;
  }

  private static boolean runs(String name, Kind kind, Workload workload) {
    SystemUnderTest system = SYSTEMS.get(name).get();
    return system.supports(kind)
        && system.supports(workload.name())
        && workload.supports(kind)
        && workload.supports(system);
  }

  private Result runOne(
      SystemUnderTest system,
      Kind kind,
      Workload workload,
      Databases databases,
      Settings settings) {
    progress.printf("%s on %s: %s ... ", system.name(), kind.label(), workload.name());
    try (system) {
      BenchDb db = databases.fresh(kind, system.name() + "_" + workload.name());
      Workload.Measurement m = workload.run(system, db, settings);
      Map<String, Object> raw = new LinkedHashMap<>(m.raw());
      // Empty when the workload ran instances of its own (scaling); the other workloads report it.
      raw.put(Report.CONFIGURATION, system.configuration());
      Result r =
          Result.of(
              system.name(),
              kind.label(),
              workload.name(),
              new Workload.Measurement(m.figures(), raw));
      StringBuilder line = new StringBuilder();
      workload
          .columns(settings)
          .forEach(
              c -> line.append(c.heading()).append(' ').append(workload.cell(r, c)).append("  "));
      progress.println(line.toString().trim());
      return r;
    } catch (Exception e) {
      progress.println("failed: " + e);
      e.printStackTrace(progress);
      return Result.failed(system.name(), kind.label(), workload.name(), e);
    }
  }

  private List<String> names(List<String> given, Set<String> known, String option) {
    List<String> names =
        given.stream().map(String::trim).filter(s -> !s.isEmpty()).distinct().toList();
    for (String n : names) {
      if (!known.contains(n)) {
        throw new ParameterException(
            spec.commandLine(),
            option + ": unknown '" + n + "' (expected one of " + String.join(", ", known) + ")");
      }
    }
    return names;
  }

  private int positive(String option, int n) {
    if (n <= 0) {
      throw new ParameterException(spec.commandLine(), option + ": must be positive, got " + n);
    }
    return n;
  }

  private Duration positive(String option, Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new ParameterException(spec.commandLine(), option + ": must be positive, got " + d);
    }
    return d;
  }

  /** Durations as Drover writes them: 500ms, 1s, 30m, or ISO-8601. */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String text) {
      return DurationText.parse("duration", text);
    }
  }
}
