package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;
import static dev.drover.app.http.Layout.orDash;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import dev.drover.model.DurationText;
import dev.drover.model.RunnerRecord;
import dev.drover.store.OpenRun;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /runners}: each runner process (host, pid, state, leader or not, started, how long since
 * its last heartbeat) and the runs it has open now, with how long each has been going.
 */
final class RunnersPage {
  /** Most open runs shown. */
  static final int OPEN_RUNS = 500;

  private final Drover drover;
  private final Layout layout;

  RunnersPage(Drover drover, Layout layout) {
    this.drover = drover;
    this.layout = layout;
  }

  void show(Context ctx) {
    Instant now = drover.now();
    List<RunnerRecord> runners = drover.store().runners().list();
    Set<String> leaders = new HashSet<>();
    for (JsonNode r : ApiBridge.runners(drover)) {
      if (r.path("leader").asBoolean()) {
        leaders.add(r.get("name").asText());
      }
    }
    Map<String, List<OpenRun>> byOwner = new LinkedHashMap<>();
    for (OpenRun r : drover.taskRunOpen(OPEN_RUNS)) {
      byOwner.computeIfAbsent(r.owner() == null ? "" : r.owner(), o -> new ArrayList<>()).add(r);
    }
    StringBuilder html = layout.open(ctx, "Runners", "/runners");
    html.append("<h1>Runners</h1>\n");
    if (runners.isEmpty()) {
      html.append("<p id=\"none\">no runner is registered</p>\n");
    } else {
      html.append("<table id=\"runners\"><tr><th>runner</th><th>host</th><th>pid</th>")
          .append("<th>state</th><th>role</th><th>started</th><th>heartbeat</th>")
          .append("<th>heartbeat age</th><th>running now</th></tr>");
      for (RunnerRecord r : runners) {
        html.append("<tr><td>")
            .append(escape(r.name()))
            .append("</td><td>")
            .append(escape(r.host()))
            .append("</td><td class=\"n\">")
            .append(r.pid())
            .append("</td><td>")
            .append(escape(r.state().dbName()))
            .append("</td><td>")
            .append(leaders.contains(r.name()) ? "leader" : "")
            .append(
                r.stopRequestedBy() == null
                    ? ""
                    : " asked to stop by " + escape(r.stopRequestedBy()))
            .append("</td><td>")
            .append(orDash(r.started()))
            .append("</td><td>")
            .append(orDash(r.heartbeat()))
            .append("</td><td class=\"n\">")
            .append(orDash(age(r.heartbeat(), now)))
            .append("</td><td class=\"n\">")
            .append(byOwner.getOrDefault(r.name(), List.of()).size())
            .append("</td></tr>");
      }
      html.append("</table>\n");
    }
    html.append("<h2>Running now</h2>\n");
    if (byOwner.isEmpty()) {
      html.append("<p id=\"idle\">no run is open</p>\n");
    }
    for (Map.Entry<String, List<OpenRun>> e : byOwner.entrySet()) {
      html.append("<h3>")
          .append(e.getKey().isEmpty() ? "opened outside a runner" : escape(e.getKey()))
          .append("</h3>\n<table class=\"open-runs\"><tr><th>task</th><th>type</th><th>run</th>")
          .append("<th>status</th><th>since</th><th>elapsed</th></tr>");
      for (OpenRun r : e.getValue()) {
        Instant since = r.run().started() != null ? r.run().started() : r.run().scheduled();
        html.append("<tr><td>")
            .append(TaskPage.link(r.run().taskId()))
            .append("</td><td>")
            .append(escape(r.type()))
            .append("</td><td>")
            .append(r.run().id())
            .append("</td><td>")
            .append(escape(r.run().status().dbName()))
            .append("</td><td>")
            .append(orDash(since))
            .append("</td><td class=\"n\">")
            .append(orDash(age(since, now)))
            .append("</td></tr>");
      }
      html.append("</table>\n");
    }
    Layout.send(ctx, html);
  }

  private static String age(Instant since, Instant now) {
    if (since == null) {
      return null;
    }
    Duration d = Duration.between(since, now).withNanos(0); // whole seconds read best here
    return d.isNegative() || d.isZero() ? "0s" : DurationText.format(d);
  }
}
