package dev.drover.engine;

import dev.drover.TaskHandler;
import dev.drover.engine.command.CommandExecutor;
import dev.drover.store.Store;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link Runner} over a store: its options (defaults from {@link RunnerOptions}), the Java
 * handlers it executes by task type, and how it runs command task types.
 *
 * <pre>{@code
 * Runner runner = drover.runner(Path.of("drover-data/runs"))
 *     .handler("fetch-page", ctx -> fetch(ctx.arguments())
 *         ? Outcome.eventful() : Outcome.uneventful())
 *     .options(o -> o.withTotalWorkers(4).withExitOnIdle(false))
 *     .build();
 * runner.run();
 * }</pre>
 */
public final class RunnerBuilder {
  private final Store store;
  private Clock clock = Clock.systemUTC();
  private RunnerOptions options;
  private final Map<String, TaskHandler> handlers = new HashMap<>();
  private CommandRunner commands;

  /** A builder whose runs keep their output under {@code runsDir}. */
  public RunnerBuilder(Store store, Path runsDir) {
    this.store = Objects.requireNonNull(store, "null store");
    this.options = RunnerOptions.defaults(runsDir);
  }

  public RunnerBuilder clock(Clock c) {
    this.clock = Objects.requireNonNull(c, "null clock");
    return this;
  }

  public RunnerBuilder options(RunnerOptions o) {
    this.options = Objects.requireNonNull(o, "null options");
    return this;
  }

  /** Changes the options, e.g. {@code o -> o.withTotalWorkers(4)}. */
  public RunnerBuilder options(java.util.function.UnaryOperator<RunnerOptions> change) {
    return options(change.apply(options));
  }

  /** Executes tasks of {@code type} with {@code handler}, in the runner's JVM. */
  public RunnerBuilder handler(String type, TaskHandler handler) {
    handlers.put(
        Objects.requireNonNull(type, "null type"), Objects.requireNonNull(handler, "null handler"));
    return this;
  }

  public RunnerBuilder handlers(Map<String, TaskHandler> byType) {
    byType.forEach(this::handler);
    return this;
  }

  /** How command task types run; by default a {@link CommandExecutor}. */
  public RunnerBuilder commands(CommandRunner runner) {
    this.commands = Objects.requireNonNull(runner, "null command runner");
    return this;
  }

  public Runner build() {
    CommandRunner c = commands != null ? commands : new CommandExecutor()::execute;
    return new Runner(store, clock, options, handlers, c);
  }
}
