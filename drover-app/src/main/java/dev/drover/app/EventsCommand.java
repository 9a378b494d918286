package dev.drover.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.model.Event;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code drover events}: the event log, and with {@code --follow} what happens next. */
@Command(
    name = "events",
    description = {
      "Show the event log: runners starting and stopping, leases lost, tasks rescued or released.",
      "",
      "Times are UTC to the millisecond. With --follow, new events are printed until interrupted."
    })
final class EventsCommand extends BaseCommand {
  private static final Duration FOLLOW_POLL = Duration.ofMillis(500);

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Show the newest N events first. Default: 50.")
  Integer limit = 50;

  @Option(
      names = "--after",
      paramLabel = "ID",
      description = "Show events after this event id instead of the newest.")
  Long after;

  @Option(
      names = {"-f", "--follow"},
      description = "Keep printing events as they are recorded.")
  boolean follow;

  @Option(
      names = "--json",
      description =
          "Print the events as one JSON array; with --follow, one JSON object per line (JSON "
              + "Lines), since the output never ends.")
  boolean json;

  @Override
  public Integer call() throws InterruptedException {
    Inputs.positive("--limit", limit);
    if (after != null && after < 0) {
      throw new dev.drover.ValidationException("--after", "must not be negative, got " + after);
    }
    try (Drover drover = root().open(false)) {
      List<Event> events =
          after == null ? drover.store().eventTail(limit) : drover.store().eventList(after, limit);
      if (json && !follow) {
        JsonViews.print(out(), JsonViews.array(events, EventsCommand::json));
        return 0;
      }
      long last = print(events, after == null ? 0 : after, true);
      while (follow) {
        Thread.sleep(FOLLOW_POLL.toMillis());
        last = print(drover.store().eventList(last, 1000), last, false);
      }
    }
    return 0;
  }

  /**
   * Prints events (a table, or JSON Lines when following) and returns the id of the last one (or
   * {@code last} if there were none).
   */
  private long print(List<Event> events, long last, boolean first) {
    Table table =
        new Table("ID", "AT", "KIND", "TASK", "RUNNER", "DETAIL").minWidths(6, 24, 20, 6, 24);
    for (Event e : events) {
      if (json) {
        out().println(Json.canonical(json(e)));
      } else {
        table.row(
            e.id(),
            Tables.timeMillis(e.at()),
            e.kind(),
            e.taskId(),
            e.runner(),
            e.detail().isEmpty() ? null : Json.canonical(e.detail()));
      }
      last = e.id();
    }
    if (!json && first && table.isEmpty() && !follow) {
      out().println("no events");
    } else if (!json && (first || !table.isEmpty())) {
      table.print(out(), first);
    }
    out().flush();
    return last;
  }

  static ObjectNode json(Event e) {
    ObjectNode o = Json.object();
    o.put("id", e.id());
    o.put("at", e.at().toString());
    o.put("kind", e.kind());
    o.put("runner", e.runner());
    if (e.taskId() != null) {
      o.put("task", e.taskId());
    }
    o.set("detail", e.detail());
    return o;
  }
}
