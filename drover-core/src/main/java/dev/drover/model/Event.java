package dev.drover.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import java.time.Instant;

/**
 * One step in the life of runners and tasks, as the event log keeps it.
 *
 * @param id increasing; 0 for an event not yet stored
 * @param kind an {@link EventKind}'s {@code dbName}, e.g. {@code lease_lost}
 * @param runner the runner it concerns, or null
 * @param taskId the task it concerns, or null
 */
public record Event(
    long id, Instant at, String kind, String runner, Long taskId, ObjectNode detail) {
  public Event {
    detail = detail == null ? Json.object() : detail;
  }

  /** An event to append. */
  public static Event of(
      Instant at, EventKind kind, String runner, Long taskId, ObjectNode detail) {
    return new Event(0, at, kind.dbName(), runner, taskId, detail);
  }

  /** True if this event is of {@code k}. */
  public boolean is(EventKind k) {
    return kind.equals(k.dbName());
  }
}
