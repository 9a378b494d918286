package dev.drover.app;

import dev.drover.Drover;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code drover task resume ID... [--tree]}. */
@Command(name = "resume", description = "Resume paused tasks, due at their next run as before.")
final class TaskResumeCommand extends TaskControlCommand {
  @Override
  String apply(Drover drover, List<Long> taskIds) {
    return "resumed " + tasks(drover.taskResume(taskIds, tree));
  }
}
