package dev.drover.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The end of a claimed run, to be written only if the lease is still held. */
public record Completion(Lease lease, TaskRunStatus status, ObjectNode metadata) {
  public Completion {
    if (!status.isFinal()) {
      throw new IllegalArgumentException("a completion needs a final status, not " + status.dbName());
    }
  }
}
