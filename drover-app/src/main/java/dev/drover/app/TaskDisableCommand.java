package dev.drover.app;

import dev.drover.Drover;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code drover task disable ID...}: tasks stay stored and visible but are never due until enabled.
 */
@Command(
    name = "disable",
    description = "Disable tasks: they are kept and visible, but never due until enabled.")
final class TaskDisableCommand extends BaseCommand {
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
      int changed = drover.taskDisable(taskIds);
      out().println("disabled " + changed + (changed == 1 ? " task" : " tasks"));
    }
    return 0;
  }
}
