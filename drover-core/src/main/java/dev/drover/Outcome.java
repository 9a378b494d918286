package dev.drover;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.model.TaskRunStatus;

/**
 * How an execution ended: the run status to record and the result to keep in the run's metadata.
 *
 * @param status eventful, uneventful, failed or permfailed
 * @param result fields to merge into the run's metadata under {@code result}; never null
 */
public record Outcome(TaskRunStatus status, ObjectNode result) {
  public Outcome {
    if (!status.isFinal() || status == TaskRunStatus.LOST) {
      throw new IllegalArgumentException("an execution cannot end as " + status.dbName());
    }
    result = result == null ? Json.object() : result;
  }

  public static Outcome eventful() {
    return new Outcome(TaskRunStatus.EVENTFUL, null);
  }

  public static Outcome uneventful() {
    return new Outcome(TaskRunStatus.UNEVENTFUL, null);
  }

  /** A failure with its message kept in the result as {@code error}. */
  public static Outcome failed(String message) {
    ObjectNode r = Json.object();
    r.put("error", message);
    return new Outcome(TaskRunStatus.FAILED, r);
  }

  /**
   * The thing to work on does not exist: a failure that retrying will not fix, so the task is
   * disabled ({@code permfailed}) with {@code not_found} recorded.
   */
  public static Outcome notFound(String message) {
    ObjectNode r = Json.object();
    r.put("not_found", true);
    if (message != null) {
      r.put("error", message);
    }
    return new Outcome(TaskRunStatus.PERMFAILED, r);
  }
}
