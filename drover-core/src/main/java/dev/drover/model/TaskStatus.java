package dev.drover.model;

import java.util.Locale;

/** Where a task stands between runs. */
public enum TaskStatus implements Named {
  /** Due once {@code next_run} has passed. */
  NEXT_RUN_NOT_SCHEDULED,
  /** Grabbed: a run is scheduled or executing. */
  NEXT_RUN_SCHEDULED,
  /** A one-shot task whose run succeeded. */
  COMPLETED,
  /** Kept and visible, but never due until enabled again. */
  DISABLED;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TaskStatus parse(String field, String text) {
    return Named.parse(TaskStatus.class, field, text);
  }
}
