package dev.drover.model;

import java.util.Locale;

/**
 * Which of its runs a task type keeps in the run history. Every attempt is kept by default; a type
 * may keep only the runs that did not succeed, for a lighter history where successes are many and
 * alike.
 */
public enum RunHistory implements Named {
  /** Every run, whatever its outcome. */
  ALL,
  /**
   * Only the runs that did not succeed (failed, failed for good, lost, cancelled by an operator). A
   * run is still written started while it executes, so that a runner that dies with it is charged a
   * lost attempt; an eventful or uneventful end removes it, and its output directory once the end
   * has committed. A run that ends before its start was written leaves no row at all, which is
   * where the saving is. Runs scheduled to be reported ({@code taskRunSchedule}) are kept whatever
   * this says.
   */
  FAILURES;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a run a runner executed and that ended with {@code status} stays in the history. */
  public boolean keeps(TaskRunStatus status) {
    return this == ALL || !(status == TaskRunStatus.EVENTFUL || status == TaskRunStatus.UNEVENTFUL);
  }

  public static RunHistory parse(String field, String text) {
    return Named.parse(RunHistory.class, field, text);
  }
}
