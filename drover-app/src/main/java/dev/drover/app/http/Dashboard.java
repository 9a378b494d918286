package dev.drover.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.app.ApiBridge;
import dev.drover.model.Event;
import io.javalin.http.Context;
import java.util.List;

/**
 * The dashboard's overview page ({@code /}), rendered on the server: task counts per type and
 * status, then kept live by a few lines of plain JavaScript reading two event streams (status
 * counts and the event log). No build step, no external script; it only reads, so it needs no
 * token.
 */
final class Dashboard {
  /** The columns after the type, as the CLI's status names them; failed for good apart. */
  static final List<String> HEADINGS =
      List.of(
          "due", "waiting", "running", "awaiting", "paused", "done", "failed", "disabled", "total");

  /** The newest events the page starts with; the stream then sends only newer ones. */
  static final int EVENTS_SHOWN = 20;

  private final Drover drover;
  private final Layout layout;

  Dashboard(Drover drover, Layout layout) {
    this.drover = drover;
    this.layout = layout;
  }

  void overview(Context ctx) {
    StringBuilder html = layout.open(ctx, "Drover", "/");
    html.append("<h1>Drover</h1>\n<form action=\"/tasks\" method=\"get\">")
        .append("<label>Task <input name=\"id\" size=\"8\"></label> <button>Show</button>")
        .append("</form>\n<h2>Tasks</h2>\n")
        .append("<table id=\"counts\"><thead><tr><th>type</th>");
    HEADINGS.forEach(h -> html.append("<th>").append(h).append("</th>"));
    html.append("</tr></thead><tbody>");
    for (JsonNode row : ApiBridge.status(drover)) {
      html.append(row(row));
    }
    List<Event> recent = drover.store().eventTail(EVENTS_SHOWN);
    long newest = recent.stream().mapToLong(Event::id).max().orElse(0);
    html.append("</tbody></table>\n<p id=\"live\">live: connecting</p>\n")
        .append("<h2>Events</h2>\n<div id=\"events\" data-after=\"")
        .append(newest)
        .append("\">");
    for (int i = recent.size() - 1; i >= 0; i--) {
      html.append("<div>")
          .append(escape(eventLine(ApiBridge.event(recent.get(i)))))
          .append("</div>");
    }
    html.append("</div>\n<script>\n").append(SCRIPT).append("</script>\n");
    Layout.send(ctx, html);
  }

  /** The start of every dashboard page, up to the body: plain CSS, no external file. */
  static String head(String title) {
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
        + escape(title)
        + "</title>"
        // No favicon: without this line every page asks for /favicon.ico and logs its 404.
        + "<link rel=\"icon\" href=\"data:,\"><style>"
        + "body{font:14px system-ui,sans-serif;margin:2em;color:#222}"
        + "table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd}"
        + "th{text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}"
        + "#events{font:12px monospace;white-space:pre;max-height:20em;overflow:auto}"
        + "</style></head><body>\n";
  }

  /** One row of the counts table; the script builds the same rows from the stream. */
  static String row(JsonNode row) {
    StringBuilder tr =
        new StringBuilder("<tr><td>").append(escape(row.get("type").asText())).append("</td>");
    long waiting = row.get("next_run_not_scheduled").asLong() - row.get("due").asLong();
    long[] cells = {
      row.get("due").asLong(),
      waiting,
      row.get("next_run_scheduled").asLong(),
      row.get("waiting_for_children").asLong(),
      row.get("paused").asLong(),
      row.get("completed").asLong(),
      row.get("failed").asLong(),
      row.get("disabled_by_operator").asLong(),
      row.get("total").asLong()
    };
    for (long c : cells) {
      tr.append("<td class=\"n\">").append(c).append("</td>");
    }
    return tr.append("</tr>").toString();
  }

  /** An event as one line of the overview's log; the script writes new ones the same way. */
  static String eventLine(JsonNode ev) {
    return ev.get("at").asText()
        + "  "
        + ev.get("kind").asText()
        + (ev.hasNonNull("task") ? "  task " + ev.get("task").asText() : "")
        + "  "
        + (ev.hasNonNull("runner") ? ev.get("runner").asText() : "");
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&#39;");
  }

  // textContent everywhere: nothing from the store is ever parsed as HTML.
  private static final String SCRIPT =
      """
      const body = document.querySelector('#counts tbody');
      const live = document.getElementById('live');
      const counts = new EventSource('/api/v1/status/stream');
      counts.addEventListener('status', e => {
        body.replaceChildren(...JSON.parse(e.data).map(r => {
          const tr = document.createElement('tr');
          const cells = [r.type, r.due, r.next_run_not_scheduled - r.due, r.next_run_scheduled,
            r.waiting_for_children, r.paused, r.completed, r.failed, r.disabled_by_operator,
            r.total];
          cells.forEach((v, i) => {
            const td = document.createElement('td');
            if (i > 0) td.className = 'n';
            td.textContent = v;
            tr.appendChild(td);
          });
          return tr;
        }));
        live.textContent = 'live: updated ' + new Date().toLocaleTimeString();
      });
      counts.onerror = () => { live.textContent = 'live: reconnecting'; };
      const log = document.getElementById('events');
      const events = new EventSource('/api/v1/events/stream?after=' + log.dataset.after);
      events.addEventListener('event', e => {
        const ev = JSON.parse(e.data);
        const line = document.createElement('div');
        line.textContent = ev.at + '  ' + ev.kind + (ev.task ? '  task ' + ev.task : '')
          + '  ' + (ev.runner || '');
        log.prepend(line);
      });
      """;
}
