package dev.drover.model;

import java.util.Locale;

/** Whether a task comes back after it succeeds. */
public enum TaskPolicy implements Named {
  RECURRING,
  ONESHOT;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TaskPolicy parse(String field, String text) {
    return Named.parse(TaskPolicy.class, field, text);
  }
}
