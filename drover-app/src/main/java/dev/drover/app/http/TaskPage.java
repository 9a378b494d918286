package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import io.javalin.http.Context;
import java.util.List;

/**
 * The dashboard's page of one task ({@code /tasks/{id}}): its fields and its newest runs, with each
 * failed run's error. Rendered on the server, every value escaped; read-only.
 */
final class TaskPage {
  static final int RUNS = 50;

  private final Drover drover;

  TaskPage(Drover drover) {
    this.drover = drover;
  }

  void show(Context ctx) {
    long id = Params.id(ctx, "id");
    Task task = drover.task(id).orElseThrow(() -> ApiError.notFound("id", "no task " + id));
    List<TaskRun> runs = drover.taskRuns(List.of(id), null, RUNS);
    StringBuilder html = new StringBuilder(4096);
    html.append(Dashboard.head("Task " + id))
        .append("<p><a href=\"/\">Drover</a></p>\n<h1>Task ")
        .append(id)
        .append("</h1>\n<table>");
    for (var f : ApiBridge.task(task).properties()) {
      html.append("<tr><th>")
          .append(escape(f.getKey()))
          .append("</th><td>")
          .append(escape(text(f.getValue())))
          .append("</td></tr>");
    }
    html.append("</table>\n<h2>Runs (newest ")
        .append(RUNS)
        .append(")</h2>\n<table><tr><th>run</th><th>status</th><th>scheduled</th>")
        .append("<th>started</th><th>ended</th><th>error</th></tr>");
    for (TaskRun r : runs) {
      JsonNode error = r.metadata().path("result").path("error");
      html.append("<tr><td>")
          .append(r.id())
          .append("</td><td>")
          .append(escape(r.status().dbName()))
          .append("</td><td>")
          .append(escape(String.valueOf(r.scheduled())))
          .append("</td><td>")
          .append(escape(String.valueOf(r.started())))
          .append("</td><td>")
          .append(escape(String.valueOf(r.ended())))
          .append("</td><td>")
          .append(error.isMissingNode() ? "" : escape(error.asText()))
          .append("</td></tr>");
    }
    html.append("</table>\n</body></html>\n");
    ctx.contentType("text/html; charset=utf-8").result(html.toString());
  }

  private static String text(JsonNode v) {
    return v.isNull() ? "" : v.isTextual() ? v.asText() : v.toString();
  }
}
