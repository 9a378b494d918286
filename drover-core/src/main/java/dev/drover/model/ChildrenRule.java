package dev.drover.model;

import java.util.Locale;

/**
 * How a parent's outcome follows from its children's once every child is final (a parent is sealed
 * then): the rule its task type declares.
 */
public enum ChildrenRule implements Named {
  /** Done if every child completed; failed if any failed for good or was cancelled. */
  ALL_SUCCEEDED,
  /** Done if at least one child completed. */
  ANY_SUCCEEDED,
  /** Done whatever the children did: the parent only waits for them. */
  IGNORE;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Whether a parent with {@code total} children of which {@code failed} did not complete succeeds.
   */
  public boolean succeeded(int total, int failed) {
    return switch (this) {
      case ALL_SUCCEEDED -> failed == 0;
      case ANY_SUCCEEDED -> total > failed;
      case IGNORE -> true;
    };
  }

  public static ChildrenRule parse(String field, String text) {
    return Named.parse(ChildrenRule.class, field, text);
  }
}
