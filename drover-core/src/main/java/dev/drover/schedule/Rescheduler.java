package dev.drover.schedule;

import dev.drover.model.Limits;
import dev.drover.model.Task;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.time.Duration;
import java.time.Instant;

/**
 * What happens to a task when one of its runs ends. Pure: no clock, no database.
 *
 * <ul>
 *   <li>permfailed: the task is disabled.
 *   <li>eventful / uneventful: a one-shot task is completed; a recurring one divides (eventful) or
 *       multiplies (uneventful) its interval by the type's backoff factor, clamped to the type's
 *       bounds, comes back one interval after the run ended, and gets its retries back.
 *   <li>failed / lost: while retries are left, the task comes back one retry delay after the run
 *       ended with one retry fewer; after that a one-shot task is disabled and a recurring one
 *       comes back one (unchanged) interval later with its retries reset.
 * </ul>
 *
 * <p>A recurring task of a cron type has no adaptive interval: wherever an interval type's task
 * comes back one interval after its run ended, it comes back at the cron's first fire time after
 * the run ended, and its {@code current_interval} is left as it is. So eventful and uneventful
 * differ only in the history, and fire times missed while the run lasted or while no runner was up
 * are not replayed (as db-scheduler does). Retries are the same as for an interval type.
 */
public final class Rescheduler {
  private Rescheduler() {}

  /**
   * The task's new state after a run ending with {@code status} at {@code ended}.
   *
   * @throws IllegalArgumentException if {@code status} does not end a run
   */
  public static TaskUpdate afterRun(Task task, TaskType type, TaskRunStatus status, Instant ended) {
    switch (status) {
      case PERMFAILED:
        return keep(task, TaskStatus.DISABLED);
      case EVENTFUL:
      case UNEVENTFUL:
        if (task.policy() == TaskPolicy.ONESHOT) {
          return keep(task, TaskStatus.COMPLETED);
        }
        if (type.cron() != null) {
          return nextFire(task, type, ended);
        }
        Duration interval = adapt(task.currentInterval(), type, status == TaskRunStatus.EVENTFUL);
        return new TaskUpdate(
            TaskStatus.NEXT_RUN_NOT_SCHEDULED, plus(ended, interval), interval, type.numRetries());
      case FAILED:
      case LOST:
        if (task.retriesLeft() > 0) {
          return new TaskUpdate(
              TaskStatus.NEXT_RUN_NOT_SCHEDULED,
              ended.plus(type.effectiveRetryDelay()),
              task.currentInterval(),
              task.retriesLeft() - 1);
        }
        if (task.policy() == TaskPolicy.ONESHOT) {
          return keep(task, TaskStatus.DISABLED);
        }
        if (type.cron() != null) {
          return nextFire(task, type, ended);
        }
        return new TaskUpdate(
            TaskStatus.NEXT_RUN_NOT_SCHEDULED,
            plus(ended, task.currentInterval()),
            task.currentInterval(),
            type.numRetries());
      default:
        throw new IllegalArgumentException("run status " + status + " does not end a run");
    }
  }

  /**
   * The adaptive interval: ÷ factor when eventful, × factor otherwise, clamped to the type's
   * bounds, and to {@link Limits#MAX_DURATION} when it has no max_interval (or the next run time
   * would grow until it overflows).
   */
  public static Duration adapt(Duration current, TaskType type, boolean eventful) {
    if (current == null) {
      return type.defaultInterval();
    }
    double factor = eventful ? 1 / type.backoffFactor() : type.backoffFactor();
    Duration next = Duration.ofMillis(Math.round(current.toMillis() * factor));
    Duration max = type.maxInterval() == null ? Limits.MAX_DURATION : type.maxInterval();
    return clamp(next, type.minInterval(), max);
  }

  /** {@code value} within {@code [min, max]}; a null bound does not bind. */
  static Duration clamp(Duration value, Duration min, Duration max) {
    if (min != null && value.compareTo(min) < 0) {
      return min;
    }
    if (max != null && value.compareTo(max) > 0) {
      return max;
    }
    return value;
  }

  /** A cron type's recurring task: back at the next fire time, interval untouched. */
  private static TaskUpdate nextFire(Task task, TaskType type, Instant ended) {
    return new TaskUpdate(
        TaskStatus.NEXT_RUN_NOT_SCHEDULED,
        type.cron().nextFireAfter(ended),
        task.currentInterval(),
        type.numRetries());
  }

  private static TaskUpdate keep(Task task, TaskStatus status) {
    return new TaskUpdate(status, task.nextRun(), task.currentInterval(), task.retriesLeft());
  }

  private static Instant plus(Instant t, Duration d) {
    return d == null ? t : t.plus(d);
  }
}
