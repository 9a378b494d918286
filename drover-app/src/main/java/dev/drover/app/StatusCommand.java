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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drover status}: how many tasks of each type are in each status. */
@Command(name = "status", description = "Count the tasks of each type in each status.")
final class StatusCommand extends BaseCommand {
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

  /** Prints the counts as a table: one row per task type (types without tasks too) and a total. */
  static void print(PrintWriter out, Drover drover) {
    Map<String, long[]> counts = counts(drover);
    TaskStatus[] statuses = TaskStatus.values();
    String[] header = new String[statuses.length + 2];
    header[0] = "TYPE";
    for (int i = 0; i < statuses.length; i++) {
      header[i + 1] = statuses[i].dbName().toUpperCase(Locale.ROOT);
    }
    header[header.length - 1] = "TOTAL";
    Table table = new Table(header);
    long[] totals = new long[statuses.length + 1];
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

  private static ArrayNode json(Drover drover) {
    ArrayNode array = Json.array();
    Set<String> unexecutable = Set.copyOf(RunnerSetup.unexecutable(drover.taskTypes()));
    counts(drover)
        .forEach(
            (type, row) -> {
              ObjectNode o = array.addObject();
              o.put("type", type);
              for (TaskStatus s : TaskStatus.values()) {
                o.put(s.dbName(), row[s.ordinal()]);
              }
              o.put("total", row[row.length - 1]);
              // false: drover run never executes this type's tasks (no command, no handler)
              o.put("executable", !unexecutable.contains(type));
            });
    return array;
  }

  /** Per type: a count per status (by ordinal) and the total last. */
  private static Map<String, long[]> counts(Drover drover) {
    Map<String, long[]> counts = new TreeMap<>();
    for (TaskType type : drover.taskTypes()) {
      counts.put(type.name(), new long[TaskStatus.values().length + 1]);
    }
    for (StatusCount c : drover.statusCounts()) {
      long[] row = counts.computeIfAbsent(c.type(), t -> new long[TaskStatus.values().length + 1]);
      row[c.status().ordinal()] += c.count();
      row[row.length - 1] += c.count();
    }
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
