package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginPage;
import dev.drover.frontier.OriginQuery;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code /frontier?lister=UUID&page=TOKEN}: the crawl frontier as the API gives it: the listers,
 * the scheduler's metrics per lister and visit type, and the listed origins a page at a time
 * (keyset token, as {@code /api/v1/origins}).
 */
final class FrontierPage {
  static final int ORIGINS = 50;

  private final Drover drover;
  private final Layout layout;

  FrontierPage(Drover drover, Layout layout) {
    this.drover = drover;
    this.layout = layout;
  }

  void show(Context ctx) {
    String listerText = ctx.queryParam("lister");
    UUID lister = listerText == null || listerText.isBlank() ? null : uuid(listerText);
    String token = ctx.queryParam("page");
    token = token == null || token.isBlank() ? null : token;
    Map<UUID, Lister> byId = ApiBridge.listersById(drover);
    List<JsonNode> listers = new ArrayList<>();
    drover.frontier().listerList().forEach(l -> listers.add(ApiBridge.lister(l)));
    List<JsonNode> metrics = new ArrayList<>();
    drover
        .frontier()
        .metricsGet(lister, null)
        .forEach(m -> metrics.add(ApiBridge.metrics(m, byId)));
    OriginPage page =
        drover
            .frontier()
            .originList(new OriginQuery(lister, null, List.of(), null, ORIGINS, token));
    List<JsonNode> origins = new ArrayList<>();
    page.origins().forEach(o -> origins.add(ApiBridge.origin(o, byId)));

    StringBuilder html = layout.open(ctx, "Frontier", "/frontier");
    html.append("<h1>Frontier</h1>\n<h2>Listers</h2>\n");
    html.append(
        listers.isEmpty()
            ? "<p id=\"no-listers\">no listers yet</p>\n"
            : JsonTable.of(
                "listers",
                listers,
                List.of("id", "name", "instance_name", "created", "last_listing_finished_at")));
    html.append("<h2>Metrics</h2>\n")
        .append(
            JsonTable.of(
                "metrics",
                metrics,
                List.of(
                    "lister_name",
                    "lister_instance_name",
                    "visit_type",
                    "origins_known",
                    "origins_enabled",
                    "origins_never_visited",
                    "origins_with_pending_changes",
                    "last_update")));
    html.append("<h2>Origins</h2>\n<form method=\"get\" action=\"/frontier\"><label>lister ")
        .append("<select name=\"lister\"><option value=\"\">any</option>");
    for (JsonNode l : listers) {
      String id = l.get("id").asText();
      html.append("<option value=\"")
          .append(escape(id))
          .append(id.equals(String.valueOf(lister)) ? "\" selected>" : "\">")
          .append(escape(l.path("name").asText() + " " + l.path("instance_name").asText()))
          .append("</option>");
    }
    html.append("</select></label> <button>Show</button></form>\n")
        .append(
            JsonTable.of(
                "origins",
                origins,
                List.of(
                    "url",
                    "visit_type",
                    "lister_name",
                    "enabled",
                    "first_seen",
                    "last_seen",
                    "last_update")));
    if (page.nextPageToken() != null) {
      html.append("<p><a id=\"next\" href=\"/frontier?page=")
          .append(escape(Layout.url(page.nextPageToken())))
          .append(lister == null ? "" : "&amp;lister=" + lister)
          .append("\">next origins</a></p>\n");
    }
    Layout.send(ctx, html);
  }

  private static UUID uuid(String text) {
    try {
      return UUID.fromString(text.trim());
    } catch (IllegalArgumentException e) {
      throw new ValidationException("lister", "expected a UUID, got '" + text + "'");
    }
  }
}
