package dev.drover.app;

import picocli.CommandLine.Command;

/** {@code drover task-run}: the group of task run commands. */
@Command(
    name = "task-run",
    description = "List task runs (the attempts at tasks).",
    subcommands = TaskRunListCommand.class)
final class TaskRunCommand {}
