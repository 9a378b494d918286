package dev.drover.frontier;

import dev.drover.Outcome;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * How one visit result changes an origin's visit stats (reference section 4, steps 2 to 8). Results
 * arrive out of order and more than once, so a result not newer than the last visit recorded
 * changes nothing.
 */
public final class VisitStatsRules {
  private VisitStatsRules() {}

  /** The stats after {@code result}, and whether the origin is to be disabled. */
  public record Outcome(OriginVisitStats stats, boolean disable) {}

  /**
   * Applies {@code result} to {@code current}, or returns empty when it changes nothing (not a
   * final status, or not newer than the last visit).
   *
   * @param globalPosition the visit type's queue position, the base for an origin without its own
   * @param random draws the jitter of the next queue position
   */
  public static Optional<Outcome> apply(
      OriginVisitStats current, VisitResult result, long globalPosition, RandomGenerator random) {
    if (!result.status().isFinal()
        || (current.lastVisit() != null && !result.date().isAfter(current.lastVisit()))) {
      return Optional.empty();
    }
    LastVisitStatus status;
    boolean eventful = false;
    switch (result.status()) {
      case NOT_FOUND -> status = LastVisitStatus.NOT_FOUND;
      case FAILED -> status = LastVisitStatus.FAILED;
      default -> {
        if (result.snapshot() == null) {
          status = LastVisitStatus.FAILED;
        } else {
          status = LastVisitStatus.SUCCESSFUL;
          // The first success is always eventful: there was no snapshot before.
          eventful = !result.snapshot().equals(current.lastSnapshot());
        }
      }
    }
    boolean visitedBefore = current.lastVisit() != null;
    // The first visit leaves the offset where it starts; failures count as uneventful.
    int offset =
        visitedBefore
            ? VisitQueue.nextOffset(current.nextPositionOffset(), eventful)
            : current.nextPositionOffset();
    boolean sameStatus = visitedBefore && status == current.lastVisitStatus();
    int successive = sameStatus ? current.successiveVisits() + 1 : 1;

    // As the reference: a stored position of 0 counts as unset, like null.
    Long own = current.nextVisitQueuePosition();
    long base = own != null && own != 0 ? own : globalPosition;
    long position = VisitQueue.nextPosition(base, offset, random);

    OriginVisitStats next =
        current
            .withLastVisit(result.date(), status)
            .withQueue(position, offset)
            .withSuccessiveVisits(successive);
    if (status == LastVisitStatus.SUCCESSFUL) {
      boolean newer =
          current.lastSuccessful() == null || result.date().isAfter(current.lastSuccessful());
      next =
          next.withLastSuccess(newer ? result.date() : current.lastSuccessful(), result.snapshot());
    }
    boolean disable =
        status != LastVisitStatus.SUCCESSFUL && successive >= VisitQueue.DISABLE_THRESHOLD;
    return Optional.of(new Outcome(next, disable));
  }
}
