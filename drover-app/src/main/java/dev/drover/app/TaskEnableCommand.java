package dev.drover.app;

import dev.drover.Drover;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code drover task enable ID...}: disabled tasks become due now, with their retries back. */
@Command(
    name = "enable",
    description = "Enable disabled tasks: they are due now, with their type's retries back.")
final class TaskEnableCommand extends BaseCommand {
  @Parameters(
      paramLabel = "ID",
      arity = "1..*",
      description = "Task ids (space- or comma-separated).")
  List<String> ids;

  @Override
  public Integer call() {
    List<Long> taskIds = Inputs.ids("ID", ids);
    try (Drover drover = root().open(false)) {
      TaskIds.existing(drover, taskIds);
      int changed = drover.taskEnable(taskIds);
      long skipped = taskIds.stream().distinct().count() - changed;
      out()
          .println(
              "enabled "
                  + changed
                  + (changed == 1 ? " task" : " tasks")
                  + (skipped > 0 ? "; " + skipped + " left as they were (not disabled)" : ""));
    }
    return 0;
  }
}
