package dev.drover.model;

import java.time.Instant;

/** A queued run that a worker began at {@code at} and that has not ended yet. */
public record RunStarted(long runId, Instant at) {}
