package dev.drover.frontier;

import static dev.drover.ValidationException.check;

import java.time.Instant;

/**
 * A visit's outcome, as a loader reports it.
 *
 * @param url the origin visited
 * @param visitType the kind of visit
 * @param date when the visit happened; results not newer than the last one recorded are ignored
 * @param status how it ended
 * @param snapshot an opaque id of what it archived, or null (a full or partial visit without one
 *     counts as failed)
 */
public record VisitResult(
    String url, String visitType, Instant date, VisitStatus status, String snapshot) {
  public VisitResult {
    check(url != null && !url.isBlank(), "url", "a visit result needs a url");
    check(
        visitType != null && !visitType.isBlank(),
        "visit_type",
        "a visit result needs a visit type");
    check(date != null, "date", "a visit result needs a date");
    check(status != null, "status", "a visit result needs a status");
  }

  public OriginKey key() {
    return new OriginKey(url, visitType);
  }
}
