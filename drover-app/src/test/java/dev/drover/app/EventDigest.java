package dev.drover.app;

import dev.drover.Drover;
import dev.drover.model.Event;
import dev.drover.store.StoreLocation;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** For a failing test's message: the event log's counts by kind and its runner lifecycle lines. */
final class EventDigest {
  private EventDigest() {}

  static String of(StoreLocation location) {
    StringBuilder b = new StringBuilder();
    try (Drover drover = Drover.open(location)) {
      List<Event> events = drover.store().eventList(0, 1_000_000);
      Map<String, Long> kinds =
          events.stream()
              .collect(Collectors.groupingBy(Event::kind, TreeMap::new, Collectors.counting()));
      b.append("-- events by kind: ").append(kinds).append('\n');
      b.append("-- runner events:\n");
      events.stream()
          .filter(e -> e.taskId() == null && !e.kind().startsWith("worker_"))
          .forEach(
              e ->
                  b.append(e.at())
                      .append(' ')
                      .append(e.kind())
                      .append(' ')
                      .append(e.runner())
                      .append(' ')
                      .append(e.detail())
                      .append('\n'));
    } catch (RuntimeException e) {
      b.append("-- cannot read the events: ").append(e).append('\n');
    }
    return b.toString();
  }
}
