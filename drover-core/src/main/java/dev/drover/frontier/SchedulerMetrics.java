package dev.drover.frontier;

import java.time.Instant;
import java.util.UUID;

/**
 * Counts of one lister's origins of one visit type, as of {@code lastUpdate}.
 *
 * @param listerId the lister
 * @param visitType the kind of visit
 * @param lastUpdate when the counts were taken
 * @param originsKnown every listed origin
 * @param originsEnabled the enabled ones
 * @param originsNeverVisited enabled ones with no successful visit (no snapshot)
 * @param originsWithPendingChanges enabled ones the forge updated after their last successful visit
 */
public record SchedulerMetrics(
    UUID listerId,
    String visitType,
    Instant lastUpdate,
    long originsKnown,
    long originsEnabled,
    long originsNeverVisited,
    long originsWithPendingChanges) {}
