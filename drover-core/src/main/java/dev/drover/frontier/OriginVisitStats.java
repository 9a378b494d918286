package dev.drover.frontier;

import static dev.drover.ValidationException.check;

import java.time.Instant;

/**
 * What is known of an origin's visits, per (url, visit type) across listers. An origin without
 * stats behaves as {@link #initial(String, String)}.
 *
 * @param url the origin
 * @param visitType the kind of visit
 * @param lastSuccessful when it was last visited successfully, or null
 * @param lastVisit when its last (final) visit happened, or null
 * @param lastVisitStatus how that visit ended, or null
 * @param lastScheduled when it was last handed out by a grab, or null
 * @param lastSnapshot an opaque id of what the last successful visit archived (e.g. a hex sha1), or
 *     null
 * @param nextVisitQueuePosition its place in the visit queue, in virtual seconds, or null
 * @param nextPositionOffset how far ahead its next place is: {@link VisitQueue#days(int)} of it
 * @param successiveVisits how many visits in a row ended with the same status
 */
public record OriginVisitStats(
    String url,
    String visitType,
    Instant lastSuccessful,
    Instant lastVisit,
    LastVisitStatus lastVisitStatus,
    Instant lastScheduled,
    String lastSnapshot,
    Long nextVisitQueuePosition,
    int nextPositionOffset,
    int successiveVisits) {

  public OriginVisitStats {
    check(url != null && !url.isBlank(), "url", "visit stats need a url");
    check(visitType != null && !visitType.isBlank(), "visit_type", "visit stats need a visit type");
    check(
        nextPositionOffset >= 0,
        "next_position_offset",
        "must not be negative, got " + nextPositionOffset);
    check(
        successiveVisits >= 0,
        "successive_visits",
        "must not be negative, got " + successiveVisits);
    check(lastSnapshot == null || !lastSnapshot.isBlank(), "last_snapshot", "must not be blank");
  }

  /** The stats of an origin never visited nor scheduled. */
  public static OriginVisitStats initial(String url, String visitType) {
    return new OriginVisitStats(
        url, visitType, null, null, null, null, null, null, VisitQueue.DEFAULT_OFFSET, 1);
  }

  public OriginKey key() {
    return new OriginKey(url, visitType);
  }

  public OriginVisitStats withLastScheduled(Instant t) {
    return new OriginVisitStats(
        url,
        visitType,
        lastSuccessful,
        lastVisit,
        lastVisitStatus,
        t,
        lastSnapshot,
        nextVisitQueuePosition,
        nextPositionOffset,
        successiveVisits);
  }

  /** The last visit, at {@code at}, ended with {@code status}. */
  public OriginVisitStats withLastVisit(Instant at, LastVisitStatus status) {
    return new OriginVisitStats(
        url,
        visitType,
        lastSuccessful,
        at,
        status,
        lastScheduled,
        lastSnapshot,
        nextVisitQueuePosition,
        nextPositionOffset,
        successiveVisits);
  }

  /** The last successful visit, at {@code at}, archived {@code snapshot}. */
  public OriginVisitStats withLastSuccess(Instant at, String snapshot) {
    return new OriginVisitStats(
        url,
        visitType,
        at,
        lastVisit,
        lastVisitStatus,
        lastScheduled,
        snapshot,
        nextVisitQueuePosition,
        nextPositionOffset,
        successiveVisits);
  }

  public OriginVisitStats withQueue(Long position, int offset) {
    return new OriginVisitStats(
        url,
        visitType,
        lastSuccessful,
        lastVisit,
        lastVisitStatus,
        lastScheduled,
        lastSnapshot,
        position,
        offset,
        successiveVisits);
  }

  public OriginVisitStats withSuccessiveVisits(int n) {
    return new OriginVisitStats(
        url,
        visitType,
        lastSuccessful,
        lastVisit,
        lastVisitStatus,
        lastScheduled,
        lastSnapshot,
        nextVisitQueuePosition,
        nextPositionOffset,
        n);
  }
}
