package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;

import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import io.javalin.http.Context;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /task-types}: each type with its tasks per status (disabled ones split into failed for
 * good and disabled by an operator), its schedule, whether it is paused, and, for a logged-in
 * browser, Pause or Resume.
 */
final class TaskTypesPage {
  private final Drover drover;
  private final Layout layout;

  TaskTypesPage(Drover drover, Layout layout) {
    this.drover = drover;
    this.layout = layout;
  }

  void show(Context ctx) {
    Map<String, Map<TaskStatus, Long>> counts = new HashMap<>();
    for (StatusCount c : drover.statusCounts()) {
      counts
          .computeIfAbsent(c.type(), t -> new EnumMap<>(TaskStatus.class))
          .put(c.status(), c.count());
    }
    Map<String, Long> byOperator = drover.disabledByOperatorCounts();
    Set<String> paused = new HashSet<>(drover.taskTypesPaused());
    Session session = layout.session(ctx);
    StringBuilder html = layout.open(ctx, "Task types", "/task-types");
    html.append("<h1>Task types</h1>\n<table id=\"types\"><tr><th>type</th><th>schedule</th>");
    List<String> headings =
        List.of("waiting", "running", "done", "failed", "disabled", "awaiting", "paused", "total");
    headings.forEach(h -> html.append("<th>").append(h).append("</th>"));
    html.append("<th>state</th><th></th></tr>");
    for (TaskType type : drover.taskTypes()) {
      Map<TaskStatus, Long> c = counts.getOrDefault(type.name(), Map.of());
      long disabled = c.getOrDefault(TaskStatus.DISABLED, 0L);
      long operator = Math.min(disabled, byOperator.getOrDefault(type.name(), 0L));
      long total = c.values().stream().mapToLong(Long::longValue).sum();
      String name = type.name();
      html.append("<tr id=\"type-")
          .append(escape(name))
          .append("\"><td><a href=\"/tasks?type=")
          .append(escape(Layout.url(name)))
          .append("\">")
          .append(escape(name))
          .append("</a></td><td>")
          .append(escape(ApiBridge.schedule(type)))
          .append("</td>");
      cell(html, name, "waiting", c.getOrDefault(TaskStatus.NEXT_RUN_NOT_SCHEDULED, 0L));
      cell(html, name, "running", c.getOrDefault(TaskStatus.NEXT_RUN_SCHEDULED, 0L));
      cell(html, name, "done", c.getOrDefault(TaskStatus.COMPLETED, 0L));
      cell(html, null, null, disabled - operator);
      cell(html, null, null, operator);
      cell(html, name, "awaiting", c.getOrDefault(TaskStatus.WAITING_FOR_CHILDREN, 0L));
      cell(html, name, "paused", c.getOrDefault(TaskStatus.PAUSED, 0L));
      cell(html, name, null, total);
      boolean isPaused = paused.contains(name);
      html.append("<td class=\"state\">")
          .append(isPaused ? "paused" : "active")
          .append("</td><td>");
      if (session != null) {
        String base = "/task-types/" + Layout.url(name) + "/";
        html.append(
            isPaused
                ? Layout.button(session, base + "resume", "Resume", false)
                : Layout.button(session, base + "pause", "Pause", false));
      }
      html.append("</td></tr>");
    }
    html.append("</table>\n<p>failed: disabled because their retries ran out; disabled: by an ")
        .append("operator (disable or cancel). A paused type's tasks are not claimed; runs under ")
        .append("way finish.</p>\n");
    if (session == null) {
      html.append("<p><a href=\"/login?next=/task-types\">Log in</a> to pause or resume a type.")
          .append("</p>\n");
    }
    Layout.send(ctx, html);
  }

  /** A count, linked to the search of those tasks when {@code type} is given. */
  private static void cell(StringBuilder html, String type, String status, long n) {
    html.append("<td class=\"n\">");
    if (type == null || n == 0) {
      html.append(n);
    } else {
      html.append("<a href=\"/tasks?type=")
          .append(escape(Layout.url(type)))
          .append(status == null ? "" : "&amp;status=" + status)
          .append("\">")
          .append(n)
          .append("</a>");
    }
    html.append("</td>");
  }
}
