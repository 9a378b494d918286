package dev.drover.model;

import static dev.drover.ValidationException.check;

import java.time.Instant;

/**
 * A task to create.
 *
 * @param type the task type's name
 * @param arguments positional and keyword arguments
 * @param nextRun when it is first due; now when null
 * @param policy recurring or one-shot; recurring when null
 * @param priority high, normal, low, or null for none
 * @param retriesLeft retries it starts with; the type's {@code num_retries} when null
 */
public record NewTask(
    String type,
    TaskArguments arguments,
    Instant nextRun,
    TaskPolicy policy,
    TaskPriority priority,
    Integer retriesLeft) {

  public NewTask {
    check(type != null && !type.isBlank(), "type", "a task needs a task type");
    arguments = arguments == null ? TaskArguments.empty() : arguments;
    policy = policy == null ? TaskPolicy.RECURRING : policy;
    Limits.checkInstant("next_run", nextRun);
    check(
        retriesLeft == null || retriesLeft >= 0,
        "retries_left",
        "must not be negative, got " + retriesLeft);
  }

  public static NewTask oneshot(String type, TaskArguments arguments) {
    return new NewTask(type, arguments, null, TaskPolicy.ONESHOT, null, null);
  }

  public static NewTask recurring(String type, TaskArguments arguments) {
    return new NewTask(type, arguments, null, TaskPolicy.RECURRING, null, null);
  }

  public NewTask withNextRun(Instant when) {
    return new NewTask(type, arguments, when, policy, priority, retriesLeft);
  }

  public NewTask withPriority(TaskPriority p) {
    return new NewTask(type, arguments, nextRun, policy, p, retriesLeft);
  }
}
