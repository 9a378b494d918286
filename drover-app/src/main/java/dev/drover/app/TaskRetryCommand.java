package dev.drover.app;

import dev.drover.Drover;
import dev.drover.ValidationException;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code drover task retry ID...}. */
@Command(
    name = "retry",
    description = {
      "Retry tasks now: due at once with their type's retries back (failed, disabled, cancelled, "
          + "done or waiting tasks).",
      "Running tasks and parents waiting for their children are left alone."
    })
final class TaskRetryCommand extends TaskControlCommand {
  @Override
  void check() {
    if (tree) {
      throw new ValidationException(
          "--tree", "does not apply to retry: a retried parent spawns its children again");
    }
  }

  @Override
  String apply(Drover drover, List<Long> taskIds) {
    return "retried " + tasks(drover.taskRetry(taskIds));
  }
}
