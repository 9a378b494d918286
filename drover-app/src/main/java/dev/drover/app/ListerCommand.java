package dev.drover.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.StaleDataException;
import dev.drover.ValidationException;
import dev.drover.frontier.Lister;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code drover lister}: the listers that record origins (one per forge instance). */
@Command(
    name = "lister",
    description =
        "Add, list, show and update listers: what enumerates the origins of one forge instance.",
    subcommands = {
      ListerCommand.Add.class,
      ListerCommand.ListListers.class,
      ListerCommand.Show.class,
      ListerCommand.Update.class
    })
final class ListerCommand {

  /**
   * The lister named {@code name} and {@code instance}, or a bad-input error naming {@code option}.
   */
  static Lister find(Drover drover, String option, String name, String instance) {
    return drover
        .frontier()
        .listerGet(name, instance)
        .orElseThrow(
            () ->
                new ValidationException(
                    option,
                    "unknown lister '"
                        + name
                        + "'"
                        + (instance == null || instance.isEmpty()
                            ? ""
                            : " instance '" + instance + "'")
                        + " (add it with 'drover lister add')"));
  }

  /** Every lister by id, to name listers in tables. */
  static Map<UUID, Lister> byId(Drover drover) {
    return drover.frontier().listerList().stream()
        .collect(Collectors.toMap(Lister::id, Function.identity()));
  }

  static void print(BaseCommand cmd, JsonOption output, Lister l) {
    if (output.json) {
      JsonViews.print(cmd.out(), FrontierViews.lister(l));
    } else {
      FrontierViews.listers(List.of(l)).print(cmd.out());
    }
  }

  @Command(
      name = "add",
      description = "Add a lister, or show it if it exists (name and instance identify it).")
  static final class Add extends BaseCommand {
    @Parameters(paramLabel = "NAME", description = "The kind of lister, e.g. github.")
    String name;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "Which forge instance. Default: none (\"\").")
    String instance;

    @Option(
        names = "--first-visits-queue-prefix",
        paramLabel = "PREFIX",
        description = "Queue prefix for first visits after a listing.")
    String prefix;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      ValidationException.check(!name.isBlank(), "NAME", "a lister needs a name");
      try (Drover drover = root().open(false)) {
        print(
            this,
            output,
            drover.frontier().listerGetOrCreate(name, instance, prefix, drover.now()));
      }
      return 0;
    }
  }

  @Command(name = "list", description = "List the listers.")
  static final class ListListers extends BaseCommand {
    @Mixin JsonOption output;

    @Override
    public Integer call() {
      try (Drover drover = root().open(false)) {
        List<Lister> listers = drover.frontier().listerList();
        if (output.json) {
          JsonViews.print(out(), JsonViews.array(listers, FrontierViews::lister));
        } else if (listers.isEmpty()) {
          out().println("no listers (add one with 'drover lister add NAME')");
        } else {
          FrontierViews.listers(listers).print(out());
        }
      }
      return 0;
    }
  }

  @Command(name = "show", description = "Show one lister, with its state and version (updated).")
  static final class Show extends BaseCommand {
    @Parameters(paramLabel = "NAME", description = "The lister's name.")
    String name;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "Its instance. Default: none.")
    String instance;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      try (Drover drover = root().open(false)) {
        Lister l = find(drover, "NAME", name, instance);
        if (output.json) {
          JsonViews.print(out(), FrontierViews.lister(l));
        } else {
          new Table("FIELD", "VALUE")
              .row("id", l.id())
              .row("name", l.name())
              .row("instance", l.instanceName().isEmpty() ? null : l.instanceName())
              .row("created", Tables.time(l.created()))
              .row("updated", l.updated())
              .row("current_state", JsonViews.compact(l.currentState()))
              .row("last_listing_finished_at", Tables.time(l.lastListingFinishedAt()))
              .row("first_visits_queue_prefix", l.firstVisitsQueuePrefix())
              .row("first_visits_scheduled_at", Tables.time(l.firstVisitsScheduledAt()))
              .print(out());
        }
      }
      return 0;
    }
  }

  @Command(
      name = "update",
      description = {
        "Update a lister's state, if it has not changed since you read it.",
        "",
        "Pass the 'updated' value you read (lister show --json) as --expect-updated: if "
            + "another writer "
            + "updated the lister since, nothing is written and the command fails (stale data)."
      })
  static final class Update extends BaseCommand {
    @Parameters(paramLabel = "NAME", description = "The lister's name.")
    String name;

    @Option(
        names = "--instance",
        paramLabel = "INSTANCE",
        description = "Its instance. Default: none.")
    String instance;

    @Option(
        names = "--expect-updated",
        required = true,
        paramLabel = "TIME",
        description = "The version (updated) you read.")
    String expectUpdated;

    @Option(
        names = "--state",
        paramLabel = "JSON",
        description = "The new current_state, a JSON object.")
    String state;

    @Option(
        names = "--last-listing-finished-at",
        paramLabel = "TIME",
        description = "When the last full listing ended.")
    String lastListing;

    @Mixin JsonOption output;

    @Override
    public Integer call() {
      Instant expected = Inputs.instant("--expect-updated", expectUpdated);
      ObjectNode newState = state == null ? null : parseState();
      Instant finished = Inputs.instant("--last-listing-finished-at", lastListing);
      try (Drover drover = root().open(false)) {
        Lister l = find(drover, "NAME", name, instance);
        Lister changed =
            new Lister(
                l.id(),
                l.name(),
                l.instanceName(),
                l.created(),
                newState == null ? l.currentState() : newState,
                expected,
                finished == null ? l.lastListingFinishedAt() : finished,
                l.firstVisitsQueuePrefix(),
                l.firstVisitsScheduledAt());
        try {
          print(this, output, drover.frontier().listerUpdate(changed, drover.now()));
        } catch (StaleDataException e) {
          throw new ValidationException(
              "--expect-updated", e.getMessage() + " (current version " + l.updated() + ")");
        }
      }
      return 0;
    }

    private ObjectNode parseState() {
      try {
        return Json.parseObject("--state", state);
      } catch (ValidationException e) {
        throw new ValidationException("--state", ErrorHandler.problem(e));
      }
    }
  }
}
