package dev.drover.frontier;

import dev.drover.ValidationException;
import dev.drover.model.Named;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How {@code grab next visits} chooses and orders origins (reference section 3). */
public enum VisitPolicy implements Named {
  /** Every origin, least recently scheduled first, never scheduled before all. */
  OLDEST_SCHEDULED_FIRST,
  /** For one-shot visit types: origins not yet visited successfully, oldest forge update first. */
  STOP_AFTER_SUCCESS,
  /** Origins never visited successfully whose forge reports an update, oldest update first. */
  NEVER_VISITED_OLDEST_UPDATE_FIRST,
  /** Visited origins updated since their last successful visit, the longest-lagging first. */
  ALREADY_VISITED_ORDER_BY_LAG,
  /**
   * Origins whose forge reports no update time, in visit-queue order. Advances the queue position.
   */
  ORIGINS_WITHOUT_LAST_UPDATE,
  /** One lister's origins not scheduled since its last listing finished. Needs a lister. */
  FIRST_VISITS_AFTER_LISTING;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a policy name; an unknown one is refused with the list of known ones. */
  public static VisitPolicy parse(String text) {
    if (text != null) {
      String wanted = text.trim().toLowerCase(Locale.ROOT).replace('-', '_');
      for (VisitPolicy p : values()) {
        if (p.dbName().equals(wanted)) {
          return p;
        }
      }
    }
    String known =
        Arrays.stream(values()).map(VisitPolicy::dbName).collect(Collectors.joining(", "));
    throw new ValidationException(
        "policy", "unknown scheduling policy '" + text + "' (expected one of " + known + ")");
  }
}
