package dev.drover.model;

import java.time.Duration;
import java.time.Instant;

/** A stored task. */
public record Task(
    long id,
    String type,
    TaskArguments arguments,
    Instant nextRun,
    Duration currentInterval,
    TaskStatus status,
    TaskPolicy policy,
    int retriesLeft,
    TaskPriority priority) {}
