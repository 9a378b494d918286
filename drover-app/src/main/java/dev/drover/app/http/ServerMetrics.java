package dev.drover.app.http;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.drover.Drover;
import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.engine.CommandRunner;
import dev.drover.engine.Runner;
import dev.drover.engine.RunnerStats;
import io.javalin.http.Context;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * The meters of {@code drover serve}, scraped by Prometheus at {@code /metrics}. Two kinds:
 *
 * <ul>
 *   <li>what this process's runner does, counted as it happens: runs ended per type and outcome,
 *       their durations (a histogram), busy and idle workers, leases rescued and lost. The handlers
 *       and the command runner are wrapped ({@link #counting}), as the CLI's progress line counts
 *       them.
 *   <li>what the store holds, read at scrape time ({@link StoreGauges}): tasks per type and status,
 *       the age of the oldest due task per type, connection pool use.
 * </ul>
 */
public final class ServerMetrics implements AutoCloseable {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final StoreGauges store;
  private final AtomicInteger busy = new AtomicInteger();

  public ServerMetrics(Drover drover) {
    this.store = new StoreGauges(drover, registry);
    drover.store().dataSource().ifPresent(this::pool);
  }

  /** {@code handlers}, each run counted and timed under its task type. */
  public Map<String, TaskHandler> counting(Map<String, TaskHandler> handlers) {
    Map<String, TaskHandler> counted = new HashMap<>();
    handlers.forEach(
        (type, handler) ->
            counted.put(type, context -> timed(type, () -> handler.handle(context))));
    return counted;
  }

  /** {@code commands}, each run counted and timed under its task type. */
  public CommandRunner counting(CommandRunner commands) {
    return (type, arguments, runDir, env) ->
        timed(type.name(), () -> commands.run(type, arguments, runDir, env));
  }

  /** Reads the counters of {@code runner}, which has {@code workers} worker slots in all. */
  public void watch(Runner runner, int workers) {
    RunnerStats stats = runner.stats();
    FunctionCounter.builder("drover.leases.rescued", stats, RunnerStats::rescued)
        .description("Expired leases this runner rescued (the task became due again)")
        .register(registry);
    FunctionCounter.builder("drover.leases.lost", stats, RunnerStats::leasesLost)
        .description("Leases this runner lost while executing (the work was cancelled)")
        .register(registry);
    FunctionCounter.builder("drover.tasks.claimed", stats, RunnerStats::claimed)
        .description("Tasks this runner claimed")
        .register(registry);
    // Count and sum, as a Prometheus summary has: rate(sum) / rate(count) is the mean pass time.
    FunctionCounter.builder("drover.passes", stats, RunnerStats::passes)
        .description("Pass transactions of this runner (write results, start runs, claim)")
        .register(registry);
    FunctionCounter.builder("drover.pass.seconds", stats, RunnerStats::passSeconds)
        .description("Seconds this runner spent in pass transactions, in all")
        .register(registry);
    FunctionCounter.builder("drover.visit.passes", stats, RunnerStats::visitPasses)
        .description("Visit scheduling passes this runner ran as the leader")
        .register(registry);
    FunctionCounter.builder("drover.visit.pass.seconds", stats, RunnerStats::visitPassSeconds)
        .description("Seconds this runner spent in visit scheduling passes, in all")
        .register(registry);
    FunctionCounter.builder(
            "drover.visit.pass.cpu.seconds", stats, RunnerStats::visitPassCpuSeconds)
        .description("CPU seconds of this process in visit scheduling passes (not the database's)")
        .register(registry);
    Gauge.builder("drover.workers", busy, AtomicInteger::get)
        .tag("state", "busy")
        .description("Worker slots of this runner executing a task, or idle")
        .register(registry);
    Gauge.builder("drover.workers", busy, b -> Math.max(0, workers - b.get()))
        .tag("state", "idle")
        .description("Worker slots of this runner executing a task, or idle")
        .register(registry);
  }

  /** The Prometheus text format of every meter, store gauges refreshed if stale. */
  public String scrape() {
    store.refresh();
    return registry.scrape();
  }

  @Override
  public void close() {
    store.close();
  }

  void scrape(Context ctx) {
    ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(scrape());
  }

  private interface Execution<E extends Exception> {
    Outcome run() throws E;
  }

  private <E extends Exception> Outcome timed(String type, Execution<E> execution) throws E {
    Timer.Sample sample = Timer.start(registry);
    busy.incrementAndGet();
    String outcome = "failed";
    try {
      Outcome o = execution.run();
      outcome = o.status().dbName();
      return o;
    } catch (Exception e) {
      // Interrupted: the lease was lost or the runner is stopping; the run is released, not failed.
      outcome = e instanceof InterruptedException ? "interrupted" : "failed";
      throw e;
    } finally {
      busy.decrementAndGet();
      sample.stop(
          Timer.builder("drover.run.duration")
              .description("How long executions took, by task type")
              .tag("type", type)
              .publishPercentileHistogram()
              .register(registry));
      Counter.builder("drover.runs.ended")
          .description("Executions ended, by task type and outcome")
          .tag("type", type)
          .tag("outcome", outcome)
          .register(registry)
          .increment();
    }
  }

  private void pool(javax.sql.DataSource ds) {
    if (!(ds instanceof HikariDataSource hikari)) {
      return;
    }
    poolGauge(hikari, "active", HikariPoolMXBean::getActiveConnections);
    poolGauge(hikari, "idle", HikariPoolMXBean::getIdleConnections);
    poolGauge(hikari, "pending", HikariPoolMXBean::getThreadsAwaitingConnection);
    Gauge.builder("drover.pool.connections.max", hikari, h -> h.getMaximumPoolSize())
        .description("Most connections the store's pool may open")
        .register(registry);
  }

  private void poolGauge(
      HikariDataSource hikari, String state, ToDoubleFunction<HikariPoolMXBean> read) {
    Gauge.builder(
            "drover.pool.connections",
            hikari,
            h -> h.getHikariPoolMXBean() == null ? 0 : read.applyAsDouble(h.getHikariPoolMXBean()))
        .tag("state", state)
        .description("Connections of the store's pool: in use (active), idle, or waited for")
        .register(registry);
  }
}
