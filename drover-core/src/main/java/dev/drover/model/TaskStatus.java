package dev.drover.model;

import dev.drover.ValidationException;
import java.util.Locale;

/**
 * Where a task stands between runs. The stored names are the Software Heritage scheduler's; people
 * are shown a word for each ({@link #word()}), and either is accepted as input.
 */
public enum TaskStatus implements Named {
  /** Due once {@code next_run} has passed. */
  NEXT_RUN_NOT_SCHEDULED("waiting"),
  /** Grabbed: a run is scheduled or executing. */
  NEXT_RUN_SCHEDULED("running"),
  /** A one-shot task whose run succeeded. */
  COMPLETED("done"),
  /** Kept and visible, but never due until enabled again. */
  DISABLED("disabled"),
  /** Its run spawned children; sealed (done or failed by its type's children rule) once all are. */
  WAITING_FOR_CHILDREN("awaiting"),
  /** Paused by an operator: never due until resumed, and then as it was. */
  PAUSED("paused");

  private final String word;
  private final String dbName = name().toLowerCase(Locale.ROOT);

  TaskStatus(String word) {
    this.word = word;
  }

  @Override
  public String dbName() {
    return dbName;
  }

  /** The word shown in tables: waiting, running, done, disabled, awaiting or paused. */
  public String word() {
    return word;
  }

  /** Parses a word ({@code waiting}) or a stored name ({@code next_run_not_scheduled}). */
  public static TaskStatus parse(String field, String text) {
    TaskStatus stored = Named.exact(TaskStatus.class, text);
    if (stored != null) {
      return stored;
    }
    String wanted = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    for (TaskStatus s : values()) {
      if (s.word.equals(wanted)) {
        return s;
      }
    }
    try {
      return Named.parse(TaskStatus.class, field, text);
    } catch (ValidationException e) {
      throw new ValidationException(
          field,
          "unknown status '"
              + text
              + "' (expected waiting, running, done, disabled, awaiting or paused, "
              + "or a stored name such as "
              + "next_run_not_scheduled)");
    }
  }
}
