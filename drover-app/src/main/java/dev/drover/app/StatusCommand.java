package dev.drover.app;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drover status}: how many tasks of each type are in each status. */
@Command(
    name = "status",
    description = {
      "Count the tasks of each type in each status.",
      "",
      "due: waiting for a runner, next run passed; waiting: next run later; running: claimed by a "
          + "runner; done: a one-shot task that succeeded; disabled: never due until enabled "
          + "(a one-shot task that failed for good is disabled too)."
    })
final class StatusCommand extends BaseCommand {
  // The columns of a row of counts.
  private static final int DUE = 0;
  private static final int WAITING = 1;
  private static final int RUNNING = 2;
  private static final int DONE = 3;
  private static final int DISABLED = 4;
  private static final int TOTAL = 5;
  private static final int COLUMNS = 6;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    try (Drover drover = root().open(false)) {
      if (output.json) {
        JsonViews.print(out(), json(drover));
      } else {
        print(out(), drover);
        List<String> unexecutable = RunnerSetup.unexecutable(drover.taskTypes());
        if (!unexecutable.isEmpty()) {
          out().println("warning: " + RunnerSetup.unexecutableWarning(unexecutable));
        }
      }
    }
    return 0;
  }

  /**
   * Prints the counts as a table: one row per task type (types without tasks too) and a total.
   * Waiting tasks are split into those due now and those waiting for a later next run.
   */
  static void print(PrintWriter out, Drover drover) {
    Map<String, long[]> counts = counts(drover);
    Table table = new Table("TYPE", "DUE", "WAITING", "RUNNING", "DONE", "DISABLED", "TOTAL");
    long[] totals = new long[COLUMNS];
    counts.forEach(
        (type, row) -> {
          table.row(cells(type, row));
          for (int i = 0; i < row.length; i++) {
            totals[i] += row[i];
          }
        });
    table.row(cells("(all types)", totals));
    table.print(out);
  }

  static ArrayNode json(Drover drover) {
    ArrayNode array = Json.array();
    Set<String> unexecutable = Set.copyOf(RunnerSetup.unexecutable(drover.taskTypes()));
    counts(drover)
        .forEach(
            (type, row) -> {
              ObjectNode o = array.addObject();
              o.put("type", type);
              // The stored status names, as everywhere in JSON; "due" is a part of the waiting.
              o.put("due", row[DUE]);
              o.put(TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName(), row[DUE] + row[WAITING]);
              o.put(TaskStatus.NEXT_RUN_SCHEDULED.dbName(), row[RUNNING]);
              o.put(TaskStatus.COMPLETED.dbName(), row[DONE]);
              o.put(TaskStatus.DISABLED.dbName(), row[DISABLED]);
              o.put("total", row[TOTAL]);
              // false: drover run never executes this type's tasks (no command, no handler)
              o.put("executable", !unexecutable.contains(type));
            });
    return array;
  }

  /** Per type: the count in each column (DUE ... TOTAL). */
  private static Map<String, long[]> counts(Drover drover) {
    Map<String, long[]> counts = new TreeMap<>();
    for (TaskType type : drover.taskTypes()) {
      counts.put(type.name(), new long[COLUMNS]);
    }
    for (StatusCount c : drover.statusCounts()) {
      long[] row = counts.computeIfAbsent(c.type(), t -> new long[COLUMNS]);
      int column =
          switch (c.status()) {
            case NEXT_RUN_NOT_SCHEDULED -> WAITING;
            case NEXT_RUN_SCHEDULED -> RUNNING;
            case COMPLETED -> DONE;
            case DISABLED -> DISABLED;
          };
      row[column] += c.count();
      row[TOTAL] += c.count();
    }
    // Counted after the statuses: a task that became due in between only moves between columns.
    drover
        .dueCounts()
        .forEach(
            (type, due) -> {
              long[] row = counts.computeIfAbsent(type, t -> new long[COLUMNS]);
              long moved = Math.min(due, row[WAITING]);
              row[WAITING] -= moved;
              row[DUE] += moved;
            });
    return counts;
  }

  private static Object[] cells(String type, long[] row) {
    Object[] cells = new Object[row.length + 1];
    cells[0] = type;
    for (int i = 0; i < row.length; i++) {
      cells[i + 1] = row[i];
    }
    return cells;
  }
}
