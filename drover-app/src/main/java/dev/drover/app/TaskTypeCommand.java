package dev.drover.app;

import picocli.CommandLine.Command;

/** {@code drover task-type}: the group of task type commands. */
@Command(
    name = "task-type",
    description = "Add, list, show, pause and resume task types (named kinds of work).",
    subcommands = {
      TaskTypeAddCommand.class,
      TaskTypeListCommand.class,
      TaskTypeShowCommand.class,
      TaskTypePauseCommand.class,
      TaskTypePauseCommand.Resume.class
    })
final class TaskTypeCommand {}
