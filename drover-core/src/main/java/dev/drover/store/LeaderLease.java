package dev.drover.store;

import java.time.Instant;

/** Who runs a singleton service, and until when unless renewed. */
public record LeaderLease(String service, String holder, Instant leaseUntil) {}
