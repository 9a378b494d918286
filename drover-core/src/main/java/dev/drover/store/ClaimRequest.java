package dev.drover.store;

import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import java.time.Duration;

/**
 * Claim up to {@code limit} due tasks of {@code type} with a lease of {@code lease}, split between
 * priority levels by {@code shares}. For a type with a per-key limit ({@link TaskType#maxPerKey()})
 * the shares are ignored: keys are served round-robin, oldest due first within a key, and no key
 * ever has more than its limit leased, whoever holds the leases. The type is the caller's copy (a
 * runner keeps its types between passes); only its name and per-key limit are used.
 */
public record ClaimRequest(TaskType type, Duration lease, int limit, PriorityShares shares) {}
