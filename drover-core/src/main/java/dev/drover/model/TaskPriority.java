package dev.drover.model;

import java.util.Locale;

/** The priority of a task; tasks without one are grabbed from a separate budget. */
public enum TaskPriority implements Named {
  HIGH,
  NORMAL,
  LOW;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TaskPriority parse(String field, String text) {
    return Named.parse(TaskPriority.class, field, text);
  }
}
