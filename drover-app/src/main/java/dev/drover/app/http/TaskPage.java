package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;
import static dev.drover.app.http.Layout.orDash;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import dev.drover.engine.command.CommandExecutor;
import dev.drover.model.DurationText;
import dev.drover.model.RunHistory;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskStatus;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The dashboard's page of one task ({@code /tasks/{id}}): its fields and status (a task that failed
 * for good told apart from one an operator disabled), its controls for a logged-in browser, its
 * tree (parent, counts per status, children a page at a time), its newest runs with their durations
 * and errors, and the tail of its newest run's output. Every value escaped.
 */
final class TaskPage {
  static final int RUNS = 50;
  static final int CHILDREN = 50;
  static final int OUTPUT_LINES = 100;

  private final Drover drover;
  private final Layout layout;
  private final RunFiles files;

  TaskPage(Drover drover, Layout layout, RunFiles files) {
    this.drover = drover;
    this.layout = layout;
    this.files = files;
  }

  void show(Context ctx) {
    long id = Params.id(ctx, "id");
    Long childrenAfter = Params.whole(ctx, "children_after", 0);
    Task task = drover.task(id).orElseThrow(() -> ApiError.notFound("id", "no task " + id));
    TaskFamily family = drover.taskFamily(id).orElseThrow();
    List<TaskRun> runs = drover.taskRuns(List.of(id), null, RUNS);
    String word = ApiBridge.statusWord(task, family, drover.now());
    StringBuilder html = layout.open(ctx, "Task " + id, "/tasks");
    html.append("<h1>Task ")
        .append(id)
        .append("</h1>\n<p>")
        .append(escape(task.type()))
        .append(" task, <b id=\"status\" class=\"")
        .append(word.equals("failed") ? "failed" : "")
        .append("\">")
        .append(escape(word))
        .append("</b>")
        .append(escape(note(task, family)))
        .append("</p>\n");
    controls(ctx, html, id, family);
    html.append("<table id=\"fields\">");
    for (var f : ApiBridge.task(task).properties()) {
      html.append("<tr><th>")
          .append(escape(f.getKey()))
          .append("</th><td>")
          .append(escape(text(f.getValue())))
          .append("</td></tr>");
    }
    html.append("</table>\n");
    tree(html, id, family, childrenAfter == null ? 0 : childrenAfter);
    boolean failuresOnly =
        drover.taskType(task.type()).map(t -> t.runHistory() == RunHistory.FAILURES).orElse(false);
    runs(html, runs, failuresOnly ? task.type() : null);
    lastError(html, runs);
    output(html, task.type(), runs);
    Layout.send(ctx, html);
  }

  private static String note(Task t, TaskFamily f) {
    if (t.status() != TaskStatus.DISABLED) {
      return "";
    }
    return f.disabledByOperator()
        ? " (by an operator: Retry runs it again)"
        : " (failed for good: its retries ran out; Retry runs it again)";
  }

  private void controls(Context ctx, StringBuilder html, long id, TaskFamily family) {
    Session session = layout.session(ctx);
    if (session == null) {
      html.append("<p><a href=\"/login?next=/tasks/")
          .append(id)
          .append("\">Log in</a> to pause, resume, cancel, retry or delete it.</p>\n");
      return;
    }
    boolean tree = family.childrenTotal() > 0;
    String base = "/tasks/" + id + "/";
    // A div: a <p> would be closed by the first <form>, leaving the forms outside #controls.
    html.append("<div id=\"controls\">")
        .append(Layout.button(session, base + "pause", "Pause", tree))
        .append(Layout.button(session, base + "resume", "Resume", tree))
        .append(Layout.button(session, base + "cancel", "Cancel", tree))
        .append(Layout.button(session, base + "retry", "Retry", false))
        .append(Layout.confirmedButton(session, base + "delete", "Delete", tree))
        .append("</div>\n");
  }

  private void tree(StringBuilder html, long id, TaskFamily family, long childrenAfter) {
    html.append("<h2>Tree</h2>\n<p id=\"tree\">parent: ")
        .append(link(family.parent()))
        .append(", root: ")
        .append(link(family.root()))
        .append(", children: ")
        .append(family.childrenTotal())
        .append(" (")
        .append(family.childrenPending())
        .append(" pending, ")
        .append(family.childrenFailed())
        .append(" failed)</p>\n<table id=\"tree-counts\"><tr><th>in the tree of task ")
        .append(family.root())
        .append("</th>");
    Map<TaskStatus, Long> counts = drover.treeCounts(family.root());
    StringBuilder cells = new StringBuilder();
    for (TaskStatus s : TaskStatus.values()) {
      html.append("<th>").append(escape(s.word())).append("</th>");
      cells.append("<td class=\"n\">").append(counts.getOrDefault(s, 0L)).append("</td>");
    }
    html.append("</tr><tr><td></td>").append(cells).append("</tr></table>\n");
    List<Task> children = drover.taskChildren(id, childrenAfter, CHILDREN + 1);
    if (children.isEmpty()) {
      return;
    }
    html.append("<h3>Children</h3>\n<table id=\"children\"><tr><th>task</th><th>type</th>")
        .append("<th>status</th></tr>");
    List<Task> shown = children.subList(0, Math.min(CHILDREN, children.size()));
    Map<Long, String> words = StatusWords.of(drover, shown);
    for (Task c : shown) {
      html.append("<tr><td>")
          .append(link(c.id()))
          .append("</td><td>")
          .append(escape(c.type()))
          .append("</td><td>")
          .append(escape(words.get(c.id())))
          .append("</td></tr>");
    }
    html.append("</table>\n");
    if (children.size() > CHILDREN) {
      html.append("<p><a id=\"children-next\" href=\"/tasks/")
          .append(id)
          .append("?children_after=")
          .append(children.get(CHILDREN - 1).id())
          .append("\">next children</a></p>\n");
    }
  }

  /**
   * The newest runs; {@code failuresOnlyType} names the task's type when it keeps only the runs
   * that did not succeed, so that a page without successes says why.
   */
  private static void runs(StringBuilder html, List<TaskRun> runs, String failuresOnlyType) {
    html.append("<h2>Runs (newest ").append(RUNS).append(")</h2>\n");
    if (failuresOnlyType != null) {
      html.append("<p id=\"run-history\">Task type ")
          .append(escape(failuresOnlyType))
          .append(" keeps only the runs that did not succeed: its successes are not listed.</p>\n");
    }
    html.append("<table id=\"runs\"><tr><th>run</th><th>status</th><th>scheduled</th>")
        .append("<th>started</th><th>ended</th><th>duration</th><th>error</th></tr>");
    for (TaskRun r : runs) {
      String error = error(r);
      html.append("<tr><td>")
          .append(r.id())
          .append("</td><td>")
          .append(escape(r.status().dbName()))
          .append("</td><td>")
          .append(orDash(r.scheduled()))
          .append("</td><td>")
          .append(orDash(r.started()))
          .append("</td><td>")
          .append(orDash(r.ended()))
          .append("</td><td>")
          .append(
              orDash(
                  r.started() == null || r.ended() == null
                      ? null
                      : DurationText.format(Duration.between(r.started(), r.ended()))))
          .append("</td><td class=\"err\">")
          .append(error == null ? "" : escape(oneLine(error)))
          .append("</td></tr>");
    }
    html.append("</table>\n");
  }

  private static void lastError(StringBuilder html, List<TaskRun> runs) {
    for (TaskRun r : runs) {
      String error = error(r);
      if (error != null) {
        html.append("<h2>Last error (run ")
            .append(r.id())
            .append(")</h2>\n<pre class=\"out\" id=\"last-error\">")
            .append(escape(error))
            .append("</pre>\n");
        return;
      }
    }
  }

  /** The tail of the newest run's stdout and stderr that a runner kept on this machine. */
  private void output(StringBuilder html, String type, List<TaskRun> runs) {
    for (TaskRun r : runs) {
      Path dir = files.dir(type, r.backendId());
      if (dir == null) {
        continue;
      }
      html.append("<h2>Output of run ").append(r.id()).append("</h2>\n");
      for (String name : List.of(CommandExecutor.STDOUT_FILE, CommandExecutor.STDERR_FILE)) {
        Path file = dir.resolve(name);
        if (!Files.isRegularFile(file)) {
          continue;
        }
        html.append("<h3>")
            .append(escape(name))
            .append(" (last ")
            .append(OUTPUT_LINES)
            .append(" lines)</h3>\n<pre class=\"out\" id=\"")
            .append(name.startsWith("stdout") ? "stdout" : "stderr")
            .append("\">");
        try {
          RunFiles.tail(file, OUTPUT_LINES).forEach(l -> html.append(escape(l)).append('\n'));
        } catch (IOException e) {
          html.append("cannot read ").append(escape(file.toString()));
        }
        html.append("</pre>\n");
      }
      return;
    }
  }

  static String link(Long id) {
    return id == null ? "-" : "<a href=\"/tasks/" + id + "\">" + id + "</a>";
  }

  private static String error(TaskRun r) {
    JsonNode error = r.metadata() == null ? null : r.metadata().path("result").path("error");
    if (error == null || error.isMissingNode() || error.isNull()) {
      return null;
    }
    return error.isTextual() ? error.asText() : error.toString();
  }

  private static String oneLine(String text) {
    String line = text.replaceAll("\\s+", " ");
    return line.length() <= 200 ? line : line.substring(0, 197) + "...";
  }

  private static String text(JsonNode v) {
    return v.isNull() ? "" : v.isTextual() ? v.asText() : v.toString();
  }
}
