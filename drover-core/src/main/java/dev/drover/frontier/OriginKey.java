package dev.drover.frontier;

import static dev.drover.ValidationException.check;

/** What visit stats are kept for: an origin's url and the kind of visit (across listers). */
public record OriginKey(String url, String visitType) {
  public OriginKey {
    check(url != null && !url.isBlank(), "url", "an origin needs a url");
    check(visitType != null && !visitType.isBlank(), "visit_type", "an origin needs a visit type");
  }
}
