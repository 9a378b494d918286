package dev.drover.frontier;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import java.time.Instant;
import java.util.UUID;

/**
 * A lister: something that enumerates origins of one forge instance, and keeps its own progress in
 * {@code currentState}. {@code updated} is its version for optimistic locking: an update must carry
 * the value it read, and a stale one is refused.
 *
 * @param id assigned by the store
 * @param name kind of lister, e.g. {@code github}
 * @param instanceName which forge instance; {@code ""} when there is only one
 * @param created when the store first saw it
 * @param currentState the lister's own JSON state (where to resume, ...)
 * @param updated the version; moved forward by every update
 * @param lastListingFinishedAt when the last full listing ended, or null
 * @param firstVisitsQueuePrefix queue prefix for first visits after a listing, or null
 * @param firstVisitsScheduledAt when first visits after the last listing were all scheduled, or
 *     null
 */
public record Lister(
    UUID id,
    String name,
    String instanceName,
    Instant created,
    ObjectNode currentState,
    Instant updated,
    Instant lastListingFinishedAt,
    String firstVisitsQueuePrefix,
    Instant firstVisitsScheduledAt) {

  public Lister {
    instanceName = instanceName == null ? "" : instanceName;
    currentState = currentState == null ? Json.object() : currentState.deepCopy();
  }

  public Lister withCurrentState(ObjectNode state) {
    return new Lister(
        id,
        name,
        instanceName,
        created,
        state,
        updated,
        lastListingFinishedAt,
        firstVisitsQueuePrefix,
        firstVisitsScheduledAt);
  }

  public Lister withLastListingFinishedAt(Instant t) {
    return new Lister(
        id,
        name,
        instanceName,
        created,
        currentState,
        updated,
        t,
        firstVisitsQueuePrefix,
        firstVisitsScheduledAt);
  }

  public Lister withFirstVisitsQueuePrefix(String prefix) {
    return new Lister(
        id,
        name,
        instanceName,
        created,
        currentState,
        updated,
        lastListingFinishedAt,
        prefix,
        firstVisitsScheduledAt);
  }

  public Lister withFirstVisitsScheduledAt(Instant t) {
    return new Lister(
        id,
        name,
        instanceName,
        created,
        currentState,
        updated,
        lastListingFinishedAt,
        firstVisitsQueuePrefix,
        t);
  }
}
