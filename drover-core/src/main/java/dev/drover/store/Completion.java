package dev.drover.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.model.NewTask;
import dev.drover.model.TaskRunStatus;
import java.time.Instant;
import java.util.List;

/**
 * The end of a claimed run, to be written only if the lease is still held. A runner adds what it
 * knows: {@code started}, when its worker began a queued run whose start is not written yet, and
 * {@code claimed}, the task and run as its claim returned them, which lets the store end the run
 * without reading the task again while the task row is still exactly as claimed. Both may be null.
 * {@code spawns} are the children the run spawned: written with the end, in its transaction, and
 * only if the run succeeded (eventful or uneventful) and its lease is still held.
 */
public record Completion(
    Lease lease,
    TaskRunStatus status,
    ObjectNode metadata,
    Instant started,
    Claim claimed,
    List<NewTask> spawns) {
  public Completion {
    if (!status.isFinal()) {
      throw new IllegalArgumentException(
          "a completion needs a final status, not " + status.dbName());
    }
    spawns = spawns == null ? List.of() : List.copyOf(spawns);
  }

  public Completion(
      Lease lease, TaskRunStatus status, ObjectNode metadata, Instant started, Claim claimed) {
    this(lease, status, metadata, started, claimed, List.of());
  }

  public Completion(Lease lease, TaskRunStatus status, ObjectNode metadata) {
    this(lease, status, metadata, null, null);
  }
}
