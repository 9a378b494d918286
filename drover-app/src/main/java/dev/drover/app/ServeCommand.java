package dev.drover.app;

import dev.drover.Drover;
import dev.drover.TaskHandler;
import dev.drover.ValidationException;
import dev.drover.app.http.ApiServer;
import dev.drover.app.http.ApiToken;
import dev.drover.app.http.ServedRunner;
import dev.drover.app.http.ServerMetrics;
import dev.drover.engine.CommandRunner;
import dev.drover.engine.ProcessIdentity;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerOptions;
import dev.drover.engine.RunnerStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code drover serve}: the HTTP API and a runner in one process. Javalin and Jetty are reached
 * only from {@link #call}, so other commands never load them.
 */
@Command(
    name = "serve",
    sortOptions = false,
    description = {
      "Serve the HTTP API (under /api/v1, described at /api/v1/openapi.json), a read-only "
          + "dashboard (/) and Prometheus metrics (/metrics), and run due tasks as 'drover run "
          + "--daemon' does.",
      "",
      "It listens on loopback (127.0.0.1:7777) unless --listen says otherwise; listening beyond "
          + "loopback needs a token of your own in DROVER_API_TOKEN. Reads need no token; "
          + "every request that changes something needs 'Authorization: Bearer TOKEN', the "
          + "token being DROVER_API_TOKEN or else the one generated into DATA_DIR/api-token "
          + "(mode 600) at the first start. The token is never printed.",
      "",
      "One data dir has one active runner: a 'serve' or 'run' started while this one runs takes "
          + "over (this one stops, server and all), or waits with --standby. SIGTERM or Ctrl-C "
          + "stops it gracefully."
    })
final class ServeCommand extends BaseCommand {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      defaultValue = Listen.DEFAULT,
      description = "Address to listen on; port 0 picks a free one. Default: ${DEFAULT-VALUE}.")
  String listen;

  @Option(names = "--no-runner", description = "Serve the API only; run no tasks here.")
  boolean noRunner;

  @Mixin RunnerFlags flags;

  @Mixin HandlersJarOption handlersJar;

  /** Read at start, so a bad jar is refused before the server listens. */
  private Map<String, TaskHandler> handlers;

  @Override
  public Integer call() throws InterruptedException {
    handlers = handlersJar.handlers(root().dataDir());
    Listen where = Listen.parse("--listen", listen);
    flags.workers(); // checked before anything starts
    Duration graceTime = flags.grace();
    Duration takeoverTime = flags.takeoverGrace();
    String configured = root().shell().env(ApiToken.ENV);
    if (!where.loopback("--listen") && (configured == null || configured.isBlank())) {
      throw new ValidationException(
          "--listen",
          "listening on '"
              + where.host()
              + "' reaches beyond this machine: set a token of your own in "
              + ApiToken.ENV
              + " first (or listen on 127.0.0.1)");
    }
    // Without a runner, a signal ends the JVM once the server and the store are closed.
    SignalStop signal = noRunner ? SignalStop.install() : null;
    try (Drover drover = root().open(false)) {
      ApiToken token = ApiToken.resolve(configured, root().dataDir());
      try (ServerMetrics metrics = new ServerMetrics(drover)) {
        serve(drover, token, metrics, where, graceTime, takeoverTime, signal);
      }
    } finally {
      if (signal != null) {
        signal.close();
      }
    }
    return 0;
  }

  private void serve(
      Drover drover,
      ApiToken token,
      ServerMetrics metrics,
      Listen where,
      Duration graceTime,
      Duration takeoverTime,
      SignalStop signal)
      throws InterruptedException {
    Runner runner = noRunner ? null : runner(drover, metrics, takeoverTime);
    // The signals are handled before "listening" is printed: a SIGTERM that follows that line at
    // once must stop this serve gracefully, not kill the JVM (exit 143).
    GracefulStop stop = runner == null ? null : GracefulStop.install(runner, graceTime);
    if (runner != null) {
      ReloadSignal.install(runner);
    }
    try (ApiServer server =
        ApiServer.start(
            drover,
            token,
            metrics,
            new ServedRunner(
                runner == null ? () -> {} : runner::wake,
                RunnerSetup.runsDir(root()),
                handlers.keySet()),
            where.host(),
            where.port())) {
      out()
          .println(
              "drover serve: listening on "
                  + where.url(server.port())
                  + " (API at "
                  + ApiServer.API
                  + ", token from "
                  + token.source()
                  + ")");
      out().flush();
      if (runner == null) {
        signal.await();
      } else {
        runUntilStopped(runner, stop);
      }
    } finally {
      if (stop != null) {
        stop.close();
      }
    }
  }

  private Runner runner(Drover drover, ServerMetrics metrics, Duration takeoverTime) {
    Map<String, TaskHandler> counted = metrics.counting(handlers);
    CommandRunner commands = metrics.counting(RunnerSetup.commands());
    RunnerOptions options =
        RunnerOptions.defaults(RunnerSetup.runsDir(root()))
            .withTotalWorkers(RunnerSetup.totalWorkers(flags.workers(), drover.store()))
            .withExitOnIdle(false)
            .withGate(gate(), takeoverTime, flags.standby());
    Runner runner =
        drover
            .runner(options.runsDir())
            .options(options)
            .handlers(counted)
            .commands(commands)
            .build();
    metrics.watch(runner, options.totalWorkers());
    return runner;
  }

  /** Runs until a signal, or until a newer runner takes this data dir over. */
  private void runUntilStopped(Runner runner, GracefulStop stop) throws InterruptedException {
    RunnerStats stats = runner.run();
    String why = stop.signalled() ? "stopped on request" : runner.stopReason();
    log.info("runner stopped ({}): {} claimed; stopping the server", why, stats.claimed());
    stop.succeeded();
  }

  /** The gate of this data dir on this host, as {@code drover run} names it. */
  private String gate() {
    Path dir = root().dataDir().toAbsolutePath().normalize();
    return ProcessIdentity.current().host() + ":" + dir;
  }
}
