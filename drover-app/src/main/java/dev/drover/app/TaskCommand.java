package dev.drover.app;

import picocli.CommandLine.Command;

/** {@code drover task}: the group of task commands. */
@Command(
    name = "task",
    description = "Add, list, search, show, disable and enable tasks.",
    subcommands = {
      TaskAddCommand.class,
      TaskListCommand.class,
      TaskSearchCommand.class,
      TaskShowCommand.class,
      TaskDisableCommand.class,
      TaskEnableCommand.class
    })
final class TaskCommand {}
