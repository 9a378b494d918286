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
      "Show the event log: runners starting and stopping, leases lost,",
      "tasks rescued or released. With --follow, keep printing new events until interrupted."
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

  @Option(names = "--json", description = "Print one JSON object per event (JSON Lines).")
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
      long last = print(events, after == null ? 0 : after);
      while (follow) {
        Thread.sleep(FOLLOW_POLL.toMillis());
        last = print(drover.store().eventList(last, 1000), last);
      }
    }
    return 0;
  }

  /** Prints events and returns the id of the last one (or {@code last} if there were none). */
  private long print(List<Event> events, long last) {
    for (Event e : events) {
      if (json) {
        ObjectNode o = Json.object();
        o.put("id", e.id());
        o.put("at", e.at().toString());
        o.put("kind", e.kind());
        o.put("runner", e.runner());
        if (e.taskId() != null) {
          o.put("task", e.taskId());
        }
        o.set("detail", e.detail());
        out().println(Json.canonical(o));
      } else {
        out()
            .println(
                e.id()
                    + "  "
                    + e.at()
                    + "  "
                    + e.kind()
                    + (e.taskId() == null ? "" : "  task " + e.taskId())
                    + "  "
                    + (e.runner() == null ? "" : e.runner())
                    + (e.detail().isEmpty() ? "" : "  " + Json.canonical(e.detail())));
      }
      last = e.id();
    }
    out().flush();
    return last;
  }
}
