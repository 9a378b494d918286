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
          + "runner; awaiting: a parent waiting for its children; paused: paused by an operator; "
          + "done: a one-shot task that succeeded; failed: failed for good (or sealed failed by "
          + "its children); disabled: disabled or cancelled by an operator."
    })
final class StatusCommand extends BaseCommand {
  // The columns of a row of counts.
  private static final int DUE = 0;
  private static final int WAITING = 1;
  private static final int RUNNING = 2;
  private static final int AWAITING = 3;
  private static final int PAUSED = 4;
  private static final int DONE = 5;
  private static final int FAILED = 6;
  private static final int DISABLED = 7;
  private static final int TOTAL = 8;
  private static final int COLUMNS = 9;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    try (Drover drover = root().open(false)) {
      if (output.json) {
        JsonViews.print(out(), json(drover));
      } else {
        print(out(), drover);
        List<String> unhandled = RunnerSetup.unexecutable(drover.taskTypes());
        if (!unhandled.isEmpty()) {
          out().println("warning: " + unhandledWarning(unhandled));
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
    Set<String> pausedTypes = Set.copyOf(drover.taskTypesPaused());
    Table table =
        new Table(
            "TYPE",
            "DUE",
            "WAITING",
            "RUNNING",
            "AWAITING",
            "PAUSED",
            "DONE",
            "FAILED",
            "DISABLED",
            "TOTAL");
    long[] totals = new long[COLUMNS];
    counts.forEach(
        (type, row) -> {
          // A paused type's tasks are not claimed (task-type pause): say so beside its name.
          table.row(cells(pausedTypes.contains(type) ? type + " (paused)" : type, row));
          for (int i = 0; i < row.length; i++) {
            totals[i] += row[i];
          }
        });
    table.row(cells("(all types)", totals));
    table.print(out);
  }

  static ArrayNode json(Drover drover) {
    ArrayNode array = Json.array();
    Set<String> unhandled = Set.copyOf(RunnerSetup.unexecutable(drover.taskTypes()));
    Set<String> pausedTypes = Set.copyOf(drover.taskTypesPaused());
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
              o.put(TaskStatus.WAITING_FOR_CHILDREN.dbName(), row[AWAITING]);
              o.put(TaskStatus.PAUSED.dbName(), row[PAUSED]);
              // disabled: every disabled task, as stored; split into failed for good and by an
              // operator (disabled or cancelled).
              o.put(TaskStatus.DISABLED.dbName(), row[FAILED] + row[DISABLED]);
              o.put("failed", row[FAILED]);
              o.put("disabled_by_operator", row[DISABLED]);
              o.put("total", row[TOTAL]);
              o.put("type_paused", pausedTypes.contains(type));
              // false: only a runner with a handler of its own (a --handlers-jar's, say) executes
              // this type's tasks; status cannot see the jars of a runner in another process.
              o.put("command_or_built_in_handler", !unhandled.contains(type));
            });
    return array;
  }

  /**
   * What status says of types without a command or a built-in handler: a runner started with a
   * {@code --handlers-jar} may execute them, and status, in another process, cannot know.
   */
  static String unhandledWarning(List<String> names) {
    boolean one = names.size() == 1;
    return "task type"
        + (one ? " " : "s ")
        + String.join(", ", names)
        + " ha"
        + (one ? "s" : "ve")
        + " no command and no built-in handler: only a runner given a --handlers-jar that handles "
        + (one ? "it" : "them")
        + " executes "
        + (one ? "its" : "their")
        + " tasks (or give the type a command)";
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
            case DISABLED -> FAILED;
            case WAITING_FOR_CHILDREN -> AWAITING;
            case PAUSED -> PAUSED;
          };
      row[column] += c.count();
      row[TOTAL] += c.count();
    }
    // Of the disabled, those an operator disabled; the rest failed for good.
    drover
        .disabledByOperatorCounts()
        .forEach(
            (type, n) -> {
              long[] row = counts.computeIfAbsent(type, t -> new long[COLUMNS]);
              long moved = Math.min(n, row[FAILED]);
              row[FAILED] -= moved;
              row[DISABLED] += moved;
            });
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
