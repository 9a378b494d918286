package dev.drover.app;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover task tree ID}: the counts of the task's tree per status (from the root index), then
 * the task and the tasks below it, a page of children per task.
 */
@Command(
    name = "tree",
    description = "Show a task's tree: counts per status, then the task and the tasks below it.")
final class TaskTreeCommand extends BaseCommand {
  @Parameters(paramLabel = "ID", description = "The task id.")
  String id;

  @Option(
      names = "--children",
      paramLabel = "N",
      description = "Most children shown under each task. Default: 20.")
  Integer children = 20;

  @Mixin JsonOption output;

  @Override
  public Integer call() {
    long taskId = Inputs.ids("ID", List.of(id)).get(0);
    Inputs.positive("--children", children);
    try (Drover drover = root().open(false)) {
      Task top =
          drover.task(taskId).orElseThrow(() -> new ValidationException("ID", "no task " + taskId));
      TaskFamily family = drover.taskFamily(taskId).orElseThrow();
      Map<TaskStatus, Long> counts = drover.treeCounts(family.root());
      if (output.json) {
        ObjectNode o = Json.object();
        o.put("root", family.root());
        ObjectNode c = o.putObject("counts");
        counts.forEach((s, n) -> c.put(s.dbName(), n));
        o.set("tree", node(drover, top, family));
        JsonViews.print(out(), o);
        return 0;
      }
      printTree(drover, out(), top, family, children);
    }
    return 0;
  }

  /** Prints the counts of {@code top}'s whole tree, then {@code top} and the tasks below it. */
  static void printTree(Drover drover, PrintWriter out, Task top, TaskFamily family, int children) {
    Map<TaskStatus, Long> counts = drover.treeCounts(family.root());
    long total = counts.values().stream().mapToLong(Long::longValue).sum();
    StringJoiner line = new StringJoiner(", ", "tree of task " + family.root() + ": ", "");
    line.add(total + (total == 1 ? " task" : " tasks"));
    counts.forEach(
        (s, n) -> line.add(n + " " + (s == TaskStatus.DISABLED ? "failed or disabled" : s.word())));
    out.println(line);
    print(drover, out, top, family, "", "", children);
  }

  private static void print(
      Drover drover,
      PrintWriter out,
      Task t,
      TaskFamily f,
      String lead,
      String indent,
      int children) {
    out.println(lead + label(t, f));
    List<Task> kids = drover.taskChildren(t.id(), 0, children);
    Map<Long, TaskFamily> families = families(drover, kids);
    long more = Math.max(0, f.childrenTotal() - kids.size());
    for (int i = 0; i < kids.size(); i++) {
      boolean last = i == kids.size() - 1 && more == 0;
      Task k = kids.get(i);
      print(
          drover,
          out,
          k,
          families.get(k.id()),
          indent + (last ? "└─ " : "├─ "),
          indent + (last ? "   " : "│  "),
          children);
    }
    if (more > 0) {
      out.println(indent + "└─ ... " + more + " more (drover task tree ID of a child shows it)");
    }
  }

  private ObjectNode node(Drover drover, Task t, TaskFamily f) {
    ObjectNode o = JsonViews.task(t);
    o.set("family", JsonViews.family(f));
    List<Task> kids = drover.taskChildren(t.id(), 0, children);
    Map<Long, TaskFamily> families = families(drover, kids);
    ArrayNode array = o.putArray("children");
    kids.forEach(k -> array.add(node(drover, k, families.get(k.id()))));
    return o;
  }

  private static Map<Long, TaskFamily> families(Drover drover, List<Task> tasks) {
    Map<Long, TaskFamily> out = new HashMap<>();
    drover
        .store()
        .taskFamily(tasks.stream().map(Task::id).toList())
        .forEach(f -> out.put(f.id(), f));
    return out;
  }

  /** One line: id, type, status (failed apart from disabled), children and arguments. */
  static String label(Task t, TaskFamily f) {
    StringBuilder s = new StringBuilder();
    s.append(t.id()).append(' ').append(t.type()).append(' ').append(word(t, f, Instant.now()));
    if (f.childrenTotal() > 0) {
      s.append(" (")
          .append(f.childrenTotal() - f.childrenPending())
          .append('/')
          .append(f.childrenTotal())
          .append(" children final");
      if (f.childrenFailed() > 0) {
        s.append(", ").append(f.childrenFailed()).append(" failed");
      }
      s.append(')');
    }
    if (!t.arguments().args().isEmpty()) {
      s.append(' ').append(JsonViews.compact(t.arguments().args()));
    }
    if (!t.arguments().kwargs().isEmpty()) {
      s.append(' ').append(JsonViews.compact(t.arguments().kwargs()));
    }
    return s.toString();
  }

  /** The status word, telling a task that failed for good from one an operator disabled. */
  static String word(Task t, TaskFamily f, Instant now) {
    if (t.status() == TaskStatus.DISABLED) {
      return f != null && f.disabledByOperator() ? "disabled" : "failed";
    }
    return Tables.status(t, now);
  }
}
