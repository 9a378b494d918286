package dev.drover.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** One attempt at a task. {@code backendId} identifies it to whoever executes it. */
public record TaskRun(
    long id,
    long taskId,
    String backendId,
    Instant scheduled,
    Instant started,
    Instant ended,
    ObjectNode metadata,
    TaskRunStatus status) {}
