package dev.drover.store;

import java.time.Instant;

/**
 * What keeps a runner that exits when idle waiting while nothing is due: tasks waiting for a retry
 * and one-shot tasks waiting for their time, each with the first due time (null when none).
 */
public record TaskWaiting(long retries, Instant firstRetry, long later, Instant firstLater) {
  public static final TaskWaiting NONE = new TaskWaiting(0, null, 0, null);

  public boolean isEmpty() {
    return retries == 0 && later == 0;
  }
}
