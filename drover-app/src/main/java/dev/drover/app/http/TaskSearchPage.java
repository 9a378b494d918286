package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;
import static dev.drover.app.http.Layout.orDash;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.model.Task;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;

/**
 * {@code /tasks?type=&status=&priority=&policy=&after=&limit=}: a search form and a page of
 * matching tasks in id order, with a link to the next page (keyset: {@code after} the last id).
 * Statuses are shown in the CLI's words. {@code ?id=N} goes straight to that task's page.
 */
final class TaskSearchPage {
  static final int DEFAULT_LIMIT = 50;
  static final int MAX_LIMIT = 500;

  private final Drover drover;
  private final Layout layout;

  TaskSearchPage(Drover drover, Layout layout) {
    this.drover = drover;
    this.layout = layout;
  }

  void show(Context ctx) {
    String id = ctx.queryParam("id");
    if (id != null) {
      ValidationException.check(
          id.trim().matches("[0-9]+"), "id", "expected a task id, got '" + id + "'");
      ctx.redirect("/tasks/" + id.trim());
      return;
    }
    String type = blankToNull(ctx.queryParam("type"));
    String statusText = blankToNull(ctx.queryParam("status"));
    String priorityText = blankToNull(ctx.queryParam("priority"));
    String policyText = blankToNull(ctx.queryParam("policy"));
    TaskStatus status = statusText == null ? null : TaskStatus.parse("status", statusText);
    TaskPriority priority =
        priorityText == null ? null : TaskPriority.parse("priority", priorityText);
    TaskPolicy policy = policyText == null ? null : TaskPolicy.parse("policy", policyText);
    Long after = Params.whole(ctx, "after", 0);
    int limit = Params.limit(ctx, DEFAULT_LIMIT, MAX_LIMIT);
    List<Task> found =
        drover.taskSearch(
            new TaskQuery(
                null,
                type == null ? null : List.of(type),
                status == null ? null : List.of(status),
                priority == null ? null : List.of(priority),
                policy,
                null,
                null,
                limit + 1,
                after));
    List<Task> page = found.subList(0, Math.min(limit, found.size()));

    StringBuilder html = layout.open(ctx, "Tasks", "/tasks");
    html.append("<h1>Tasks</h1>\n<form method=\"get\" action=\"/tasks\" id=\"search\">");
    List<String> types = drover.taskTypes().stream().map(TaskType::name).toList();
    select(html, "type", type, types);
    select(
        html,
        "status",
        status == null ? null : status.word(),
        List.of(TaskStatus.values()).stream().map(TaskStatus::word).toList());
    select(
        html,
        "priority",
        priority == null ? null : priority.dbName(),
        List.of(TaskPriority.values()).stream().map(TaskPriority::dbName).toList());
    select(
        html,
        "policy",
        policy == null ? null : policy.dbName(),
        List.of(TaskPolicy.values()).stream().map(TaskPolicy::dbName).toList());
    html.append(" <button>Search</button></form>\n")
        .append("<form method=\"get\" action=\"/tasks\"><label>Task <input name=\"id\" size=\"8\">")
        .append("</label> <button>Show</button></form>\n");
    table(html, page);
    if (found.size() > limit) {
      String query =
          param("type", type)
              + param("status", status == null ? null : status.word())
              + param("priority", priority == null ? null : priority.dbName())
              + param("policy", policy == null ? null : policy.dbName())
              + (limit == DEFAULT_LIMIT ? "" : "&limit=" + limit);
      html.append("<p><a id=\"next\" href=\"/tasks?after=")
          .append(page.get(page.size() - 1).id())
          .append(escape(query))
          .append("\">next page</a></p>\n");
    }
    Layout.send(ctx, html);
  }

  private void table(StringBuilder html, List<Task> page) {
    if (page.isEmpty()) {
      html.append("<p id=\"none\">no tasks match</p>\n");
      return;
    }
    Map<Long, String> words = StatusWords.of(drover, page);
    html.append("<table id=\"tasks\"><tr><th>task</th><th>type</th><th>status</th>")
        .append("<th>policy</th><th>priority</th><th>next run</th><th>retries left</th>")
        .append("<th>arguments</th></tr>");
    for (Task t : page) {
      String word = words.get(t.id());
      html.append("<tr><td>")
          .append(TaskPage.link(t.id()))
          .append("</td><td>")
          .append(escape(t.type()))
          .append("</td><td class=\"")
          .append(word.equals("failed") ? "failed" : "")
          .append("\">")
          .append(escape(word))
          .append("</td><td>")
          .append(escape(t.policy().dbName()))
          .append("</td><td>")
          .append(orDash(t.priority() == null ? null : t.priority().dbName()))
          .append("</td><td>")
          .append(orDash(t.nextRun()))
          .append("</td><td class=\"n\">")
          .append(t.retriesLeft())
          .append("</td><td>")
          .append(escape(arguments(t)))
          .append("</td></tr>");
    }
    html.append("</table>\n");
  }

  private static String arguments(Task t) {
    String text =
        (t.arguments().args().isEmpty() ? "" : t.arguments().args().toString())
            + " "
            + (t.arguments().kwargs().isEmpty() ? "" : t.arguments().kwargs().toString());
    text = text.trim();
    return text.length() <= 80 ? text : text.substring(0, 77) + "...";
  }

  private static void select(StringBuilder html, String name, String chosen, List<String> values) {
    html.append("<label>")
        .append(name)
        .append(" <select name=\"")
        .append(name)
        .append("\"><option value=\"\">any</option>");
    for (String v : values) {
      html.append("<option")
          .append(v.equals(chosen) ? " selected" : "")
          .append(">")
          .append(escape(v))
          .append("</option>");
    }
    html.append("</select></label> ");
  }

  private static String param(String name, String value) {
    return value == null ? "" : "&" + name + "=" + Layout.url(value);
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.trim();
  }
}
