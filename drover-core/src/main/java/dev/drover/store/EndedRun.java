package dev.drover.store;

import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;

/**
 * A run that a transaction ended, as the run-end hooks see it.
 *
 * @param task the run's task as the transaction read it before rescheduling it
 * @param run the run as ended: its end, status and merged metadata. Ends written in a batch are not
 *     read back, so its id is 0 when the run was written whole (a queued run whose start was not on
 *     record), and its start is null when an earlier pass wrote it and the completion did not carry
 *     it
 * @param status how it ended (the same as {@code run.status()})
 * @param kept whether the run stays in the history: false for a success of a type that keeps only
 *     the runs that did not succeed ({@link dev.drover.model.RunHistory})
 */
record EndedRun(Task task, TaskRun run, TaskRunStatus status, boolean kept) {
  /** A run ended and kept in the history. */
  EndedRun(Task task, TaskRun run, TaskRunStatus status) {
    this(task, run, status, true);
  }
}
