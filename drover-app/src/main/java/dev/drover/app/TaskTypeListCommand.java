package dev.drover.app;

import dev.drover.Drover;
import dev.drover.model.TaskType;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drover task-type list}: every task type, by name. */
@Command(name = "list", description = "List the task types.")
final class TaskTypeListCommand extends BaseCommand {
  @Mixin JsonOption output;

  @Override
  public Integer call() {
    try (Drover drover = root().open(false)) {
      List<TaskType> types = drover.taskTypes();
      if (output.json) {
        JsonViews.print(out(), JsonViews.array(types, JsonViews::taskType));
      } else if (types.isEmpty()) {
        out()
            .println(
                "no task types (add one with 'drover task-type add' or 'drover config apply "
                    + "FILE')");
      } else {
        Tables.taskTypes(types).print(out());
      }
    }
    return 0;
  }
}
