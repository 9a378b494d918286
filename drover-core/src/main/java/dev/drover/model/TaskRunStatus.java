package dev.drover.model;

import java.util.Locale;

/** The state of one attempt at a task. */
public enum TaskRunStatus implements Named {
  SCHEDULED,
  STARTED,
  /** Succeeded and something changed. */
  EVENTFUL,
  /** Succeeded and nothing changed. */
  UNEVENTFUL,
  /** Failed; retried while the task has retries left. */
  FAILED,
  /** Failed for good: the task is disabled. */
  PERMFAILED,
  /** Its owner vanished before ending it; counts as a failed attempt. */
  LOST,
  /** Stopped by an operator's cancel; charges nothing. */
  CANCELLED;

  private final String dbName = name().toLowerCase(Locale.ROOT);

  @Override
  public String dbName() {
    return dbName;
  }

  /** True for the statuses that end a run (everything but scheduled and started). */
  public boolean isFinal() {
    return this != SCHEDULED && this != STARTED;
  }

  public static TaskRunStatus parse(String field, String text) {
    return Named.parse(TaskRunStatus.class, field, text);
  }
}
