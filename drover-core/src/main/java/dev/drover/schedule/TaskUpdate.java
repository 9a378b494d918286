package dev.drover.schedule;

import dev.drover.model.TaskStatus;
import java.time.Duration;
import java.time.Instant;

/** What ending a run does to its task. */
public record TaskUpdate(
    TaskStatus status, Instant nextRun, Duration currentInterval, int retriesLeft) {}
