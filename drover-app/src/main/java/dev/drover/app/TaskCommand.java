package dev.drover.app;

import picocli.CommandLine.Command;

/** {@code drover task}: the group of task commands. */
@Command(
    name = "task",
    description =
        "Add, list, search, show, disable, enable, pause, resume, cancel, retry and delete tasks,"
            + " and show a tree.",
    subcommands = {
      TaskAddCommand.class,
      TaskListCommand.class,
      TaskSearchCommand.class,
      TaskShowCommand.class,
      TaskDisableCommand.class,
      TaskEnableCommand.class,
      TaskPauseCommand.class,
      TaskResumeCommand.class,
      TaskCancelCommand.class,
      TaskRetryCommand.class,
      TaskDeleteCommand.class,
      TaskTreeCommand.class
    })
final class TaskCommand {}
