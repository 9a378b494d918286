package dev.drover.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import java.time.Instant;

/**
 * One step in the life of runners and tasks, as the event log keeps it.
 *
 * @param id increasing; 0 for an event not yet stored
 * @param kind e.g. {@code runner_started}, {@code lease_lost}, {@code task_rescued}
 * @param runner the runner it concerns, or null
 * @param taskId the task it concerns, or null
 */
public record Event(long id, Instant at, String kind, String runner, Long taskId, ObjectNode detail) {
  public Event {
    detail = detail == null ? Json.object() : detail;
  }

  /** An event to append. */
  public static Event of(Instant at, String kind, String runner, Long taskId, ObjectNode detail) {
    return new Event(0, at, kind, runner, taskId, detail);
  }
}
