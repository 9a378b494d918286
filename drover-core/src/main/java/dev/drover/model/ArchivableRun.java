package dev.drover.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** A run of a finished task, ready to be exported and deleted. */
public record ArchivableRun(
    long taskId,
    TaskPolicy taskPolicy,
    TaskStatus taskStatus,
    String type,
    TaskArguments arguments,
    long taskRunId,
    String backendId,
    ObjectNode metadata,
    Instant scheduled,
    Instant started,
    Instant ended,
    TaskRunStatus runStatus) {}
