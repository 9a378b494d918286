package dev.drover.app;

import dev.drover.Drover;
import dev.drover.model.Task;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What the operator's task verbs share: task ids that must all exist (else nothing is changed),
 * {@code --tree} for a task and everything below it, and one line saying what changed.
 */
abstract class TaskControlCommand extends BaseCommand {
  @Parameters(
      paramLabel = "ID",
      arity = "1..*",
      description = "Task ids (space- or comma-separated).")
  List<String> ids;

  @Option(names = "--tree", description = "Also every task below each task (its children, ...).")
  boolean tree;

  /** The tasks named on the command line, as read before the verb ran. */
  List<Task> given = List.of();

  @Override
  public Integer call() {
    List<Long> taskIds = Inputs.ids("ID", ids);
    check();
    try (Drover drover = root().open(false)) {
      given = TaskIds.existing(drover, taskIds);
      out().println(apply(drover, taskIds));
    }
    return 0;
  }

  /** Refuses options that do not apply to the verb, before the database is opened. */
  void check() {}

  /** Does the verb; returns the line to print. */
  abstract String apply(Drover drover, List<Long> taskIds);

  static String tasks(int n) {
    return n + (n == 1 ? " task" : " tasks");
  }
}
