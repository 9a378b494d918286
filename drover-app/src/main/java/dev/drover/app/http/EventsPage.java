package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.model.Event;
import dev.drover.model.EventKind;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /events?kind=K}: the event log, newest first, optionally of one kind; the page shows the
 * newest stored events, then a few lines of plain JavaScript add new ones from the event stream as
 * they come (each value set as text, never parsed as HTML).
 */
final class EventsPage {
  /** How many of the newest events the page starts from (before the kind filter). */
  static final int TAIL = 500;

  /** Most rows the page starts with. */
  static final int SHOWN = 100;

  private final Drover drover;
  private final Layout layout;

  EventsPage(Drover drover, Layout layout) {
    this.drover = drover;
    this.layout = layout;
  }

  void show(Context ctx) {
    String kind = ctx.queryParam("kind");
    kind = kind == null || kind.isBlank() ? null : kind.trim();
    List<String> kinds = new ArrayList<>();
    for (EventKind k : EventKind.values()) {
      kinds.add(k.dbName());
    }
    ValidationException.check(
        kind == null || kinds.contains(kind), "kind", "unknown event kind '" + kind + "'");
    List<Event> tail = drover.store().eventTail(TAIL);
    long newest = tail.stream().mapToLong(Event::id).max().orElse(0);
    List<Event> shown = new ArrayList<>();
    for (Event e : tail) {
      if (kind == null || e.kind().equals(kind)) {
        shown.add(e);
      }
    }
    shown.sort((a, b) -> Long.compare(b.id(), a.id()));
    StringBuilder html = layout.open(ctx, "Events", "/events");
    html.append("<h1>Events</h1>\n<form method=\"get\" action=\"/events\"><label>kind ")
        .append("<select name=\"kind\" id=\"kind\"><option value=\"\">any</option>");
    for (String k : kinds) {
      html.append("<option")
          .append(k.equals(kind) ? " selected" : "")
          .append(">")
          .append(escape(k))
          .append("</option>");
    }
    html.append("</select></label> <button>Filter</button></form>\n")
        .append("<p id=\"live\">live: connecting</p>\n")
        .append("<table id=\"events\" data-after=\"")
        .append(newest)
        .append("\" data-kind=\"")
        .append(kind == null ? "" : escape(kind))
        .append("\"><thead><tr><th>id</th><th>at</th><th>kind</th><th>runner</th><th>task</th>")
        .append("<th>detail</th></tr></thead><tbody>");
    for (Event e : shown.subList(0, Math.min(SHOWN, shown.size()))) {
      html.append("<tr><td>")
          .append(e.id())
          .append("</td><td>")
          .append(escape(e.at().toString()))
          .append("</td><td>")
          .append(escape(e.kind()))
          .append("</td><td>")
          .append(e.runner() == null ? "" : escape(e.runner()))
          .append("</td><td>")
          .append(e.taskId() == null ? "" : TaskPage.link(e.taskId()))
          .append("</td><td>")
          .append(escape(e.detail().toString()))
          .append("</td></tr>");
    }
    html.append("</tbody></table>\n<script>\n").append(SCRIPT).append("</script>\n");
    Layout.send(ctx, html);
  }

  // textContent everywhere: nothing from the store is ever parsed as HTML.
  private static final String SCRIPT =
      """
      const table = document.getElementById('events');
      const rows = table.querySelector('tbody');
      const kind = table.dataset.kind;
      const live = document.getElementById('live');
      const feed = new EventSource('/api/v1/events/stream?after=' + table.dataset.after);
      feed.addEventListener('event', e => {
        const ev = JSON.parse(e.data);
        live.textContent = 'live: updated ' + new Date().toLocaleTimeString();
        if (kind && ev.kind !== kind) return;
        const tr = document.createElement('tr');
        [ev.id, ev.at, ev.kind, ev.runner || '', ev.task, JSON.stringify(ev.detail)]
          .forEach((v, i) => {
            const td = document.createElement('td');
            if (i === 4 && v != null) {
              const a = document.createElement('a');
              a.href = '/tasks/' + encodeURIComponent(v);
              a.textContent = v;
              td.appendChild(a);
            } else {
              td.textContent = v == null ? '' : v;
            }
            tr.appendChild(td);
          });
        rows.prepend(tr);
      });
      feed.onopen = () => { live.textContent = 'live: connected'; };
      feed.onerror = () => { live.textContent = 'live: reconnecting'; };
      """;
}
