package dev.drover.app;

import dev.drover.Drover;
import dev.drover.frontier.Lister;
import dev.drover.frontier.SchedulerMetrics;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code drover metrics}: counts of origins per lister and visit type. */
@Command(
    name = "metrics",
    description =
        "Count origins per lister and visit type: known, enabled, never visited, with pending "
            + "changes.",
    subcommands = {MetricsCommand.Update.class, MetricsCommand.Show.class})
final class MetricsCommand {

  static void print(
      BaseCommand cmd, JsonOption output, Drover drover, List<SchedulerMetrics> metrics) {
    Map<UUID, Lister> byId = ListerCommand.byId(drover);
    if (output.json) {
      JsonViews.print(cmd.out(), JsonViews.array(metrics, m -> FrontierViews.metrics(m, byId)));
    } else if (metrics.isEmpty()) {
      cmd.out().println("no metrics (count them with 'drover metrics update')");
    } else {
      FrontierViews.metrics(metrics, byId).print(cmd.out());
    }
  }

  @Command(
      name = "update",
      description = "Count the origins now, of one lister or of all, and keep the counts.")
  static final class Update extends BaseCommand {
    @Option(
        names = "--lister",
        paramLabel = "NAME",
        description = "Only this lister. Default: every lister.")
    String lister;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "The lister's instance. Default: none.")
    String instance;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      try (Drover drover = root().open(false)) {
        UUID id =
            lister == null ? null : ListerCommand.find(drover, "--lister", lister, instance).id();
        print(this, output, drover, drover.frontier().metricsUpdate(id, drover.now()));
      }
      return 0;
    }
  }

  @Command(name = "show", description = "Show the counts kept by the last update.")
  static final class Show extends BaseCommand {
    @Option(names = "--lister", paramLabel = "NAME", description = "Only this lister.")
    String lister;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "The lister's instance. Default: none.")
    String instance;

    @Option(names = "--visit-type", paramLabel = "TYPE", description = "Only this visit type.")
    String visitType;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      try (Drover drover = root().open(false)) {
        UUID id =
            lister == null ? null : ListerCommand.find(drover, "--lister", lister, instance).id();
        print(this, output, drover, drover.frontier().metricsGet(id, visitType));
      }
      return 0;
    }
  }
}
