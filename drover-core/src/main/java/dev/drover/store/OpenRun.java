package dev.drover.store;

import dev.drover.model.TaskRun;

/**
 * A run not ended yet, with what a reader of the runners needs beside it.
 *
 * @param run the run
 * @param type its task's type
 * @param owner the runner that claimed it, or null for a run opened outside a runner
 */
public record OpenRun(TaskRun run, String type, String owner) {}
