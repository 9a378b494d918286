package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.model.Event;
import dev.drover.model.EventKind;
import dev.drover.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A runner's events on their way to the event log. Any thread may add (worker threads never touch
 * the database, so they queue here); the runner's loop writes them in one batch per pass. Events
 * leave the queue only once they are written, so a failed write loses none.
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

  void add(EventKind kind, Long taskId, ObjectNode detail) {
    pending.add(Event.of(clock.instant(), kind, runner, taskId, detail));
  }

  void add(EventKind kind, ObjectNode detail) {
    add(kind, null, detail);
  }

  /** Writes what is pending; loop thread only (the one thread that removes). */
  void flush() {
    List<Event> batch = new ArrayList<>(pending);
    if (batch.isEmpty()) {
      return;
    }
    store.eventAppend(batch);
    for (int i = 0; i < batch.size(); i++) {
      pending.poll(); // others only append, so the head is what was written
    }
  }
}
