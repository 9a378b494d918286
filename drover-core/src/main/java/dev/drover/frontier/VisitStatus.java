package dev.drover.frontier;

import dev.drover.model.Named;
import java.util.Locale;

/** The status a visit reports. Only final ones (not created or ongoing) change visit stats. */
public enum VisitStatus implements Named {
  CREATED,
  ONGOING,
  /** Finished and archived everything; a visit without a snapshot counts as failed. */
  FULL,
  /** Finished but archived only part; counts like {@code FULL}. */
  PARTIAL,
  FAILED,
  NOT_FOUND;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the visit has ended (so its result changes the origin's visit stats). */
  public boolean isFinal() {
    return this != CREATED && this != ONGOING;
  }

  public static VisitStatus parse(String field, String text) {
    return Named.parse(VisitStatus.class, field, text);
  }
}
