package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.model.Event;
import dev.drover.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A runner's events on their way to the event log. Any thread may add (worker threads never touch
 * the database, so they queue here); the runner's loop writes them in one batch per tick.
 */
final class EventLog {
  private final Store store;
  private final Clock clock;
  private final String runner;
  private final ConcurrentLinkedQueue<Event> pending = new ConcurrentLinkedQueue<>();

  EventLog(Store store, Clock clock, String runner) {
    this.store = store;
    this.clock = clock;
    this.runner = runner;
  }

  void add(String kind, Long taskId, ObjectNode detail) {
    pending.add(Event.of(clock.instant(), kind, runner, taskId, detail));
  }

  /** Writes what is pending; loop thread only. */
  void flush() {
    List<Event> batch = new ArrayList<>();
    for (Event e; (e = pending.poll()) != null; ) {
      batch.add(e);
    }
    store.eventAppend(batch);
  }
}
