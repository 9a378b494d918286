package dev.drover.store;

import java.time.Instant;

/** A queued claim whose worker began it at {@code at} and that has not ended yet. */
public record RunStarted(Claim claim, Instant at) {}
