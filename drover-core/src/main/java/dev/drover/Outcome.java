package dev.drover;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.model.NewTask;
import dev.drover.model.TaskRunStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * How an execution ended: the run status to record and the result to keep in the run's metadata.
 *
 * @param status eventful, uneventful, failed or permfailed
 * @param result fields to merge into the run's metadata under {@code result}; never null
 * @param children tasks the run spawns as its task's children; see {@link #spawning(List)}
 */
public record Outcome(TaskRunStatus status, ObjectNode result, List<NewTask> children) {
  public Outcome {
    if (!status.isFinal() || status == TaskRunStatus.LOST || status == TaskRunStatus.CANCELLED) {
      throw new IllegalArgumentException("an execution cannot end as " + status.dbName());
    }
    result = result == null ? Json.object() : result;
    children = children == null ? List.of() : List.copyOf(children);
  }

  public Outcome(TaskRunStatus status, ObjectNode result) {
    this(status, result, List.of());
  }

  /**
   * This outcome, spawning {@code tasks} as children of the run's task. They are created with the
   * run's end, in the same transaction, only if the run succeeded and its lease was still held; the
   * task then waits for them (status {@code awaiting}) and is sealed by its type's {@link
   * dev.drover.model.ChildrenRule} once every child is final. A child's policy is its own: use
   * {@link NewTask#oneshot} for work done once.
   */
  public Outcome spawning(List<NewTask> tasks) {
    List<NewTask> all = new ArrayList<>(children);
    all.addAll(tasks);
    return new Outcome(status, result, all);
  }

  /** See {@link #spawning(List)}. */
  public Outcome spawning(NewTask... tasks) {
    return spawning(List.of(tasks));
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
