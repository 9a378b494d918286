package dev.drover.app;

import dev.drover.ValidationException;
import dev.drover.engine.RunnerOptions;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of the runner that {@code drover run} and {@code drover serve} start: how many
 * workers, how long a stop and a takeover wait, and whether to stand by. Checked by each getter,
 * naming the option.
 */
final class RunnerFlags {
  @Option(
      names = "--workers",
      paramLabel = "N",
      description =
          "Most tasks executing at once. Default: limits.total_workers of the configuration, else "
              + RunnerOptions.DEFAULT_TOTAL_WORKERS
              + ".")
  private Integer workers;

  @Option(
      names = "--grace",
      paramLabel = "DURATION",
      defaultValue = "30s",
      description =
          "When stopped, how long running work may take to finish before it is released. "
              + "Default: ${DEFAULT-VALUE}.")
  private String grace;

  @Option(
      names = "--takeover-grace",
      paramLabel = "DURATION",
      defaultValue = "5s",
      description =
          "When taking over this data dir, how long the active runner gets to finish before it is "
              + "killed. Default: ${DEFAULT-VALUE}.")
  private String takeoverGrace;

  @Option(
      names = "--standby",
      description =
          "If a runner is active on this data dir, wait for it to go instead of taking over.")
  private boolean standby;

  /** {@code --workers}, or null for the configuration's (or the default) total. */
  Integer workers() {
    Inputs.positive("--workers", workers);
    return workers;
  }

  Duration grace() {
    return nonNegative("--grace", grace);
  }

  Duration takeoverGrace() {
    return nonNegative("--takeover-grace", takeoverGrace);
  }

  boolean standby() {
    return standby;
  }

  private static Duration nonNegative(String option, String text) {
    Duration d = Inputs.duration(option, text);
    ValidationException.check(!d.isNegative(), option, "must not be negative, got " + text);
    return d;
  }
}
