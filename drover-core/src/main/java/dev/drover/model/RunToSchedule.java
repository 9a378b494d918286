package dev.drover.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** A task run to open in the {@code scheduled} state. */
public record RunToSchedule(
    long taskId, String backendId, ObjectNode metadata, Instant scheduled) {}
