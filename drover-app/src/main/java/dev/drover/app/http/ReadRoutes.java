package dev.drover.app.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.app.ApiBridge;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginPage;
import dev.drover.frontier.OriginQuery;
import dev.drover.model.Event;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Read-only views: status counts, events, runners and the crawl frontier. */
final class ReadRoutes {
  static final int DEFAULT_EVENTS = 50;
  static final int MAX_EVENTS = 1000;

  private final Drover drover;

  ReadRoutes(Drover drover) {
    this.drover = drover;
  }

  void status(Context ctx) {
    Reply.json(ctx, ApiBridge.status(drover));
  }

  void runners(Context ctx) {
    Reply.json(ctx, ApiBridge.runners(drover));
  }

  /** {@code GET /events?after=ID&limit=N}: after an id in id order, else the newest N. */
  void events(Context ctx) {
    Long after = Params.whole(ctx, "after", 0);
    int limit = Params.limit(ctx, DEFAULT_EVENTS, MAX_EVENTS);
    List<Event> events =
        after == null ? drover.store().eventTail(limit) : drover.store().eventList(after, limit);
    ArrayNode a = Json.array();
    events.forEach(e -> a.add(ApiBridge.event(e)));
    Reply.json(ctx, a);
  }

  void listers(Context ctx) {
    ArrayNode a = Json.array();
    drover.frontier().listerList().forEach(l -> a.add(ApiBridge.lister(l)));
    Reply.json(ctx, a);
  }

  /**
   * {@code GET /origins?lister=UUID&page=TOKEN&limit=N}: enabled and disabled origins, a page at a
   * time, as {@code {"items": [...], "next": TOKEN or null}}.
   */
  void origins(Context ctx) {
    String listerText = ctx.queryParam("lister");
    UUID lister = listerText == null ? null : uuid("lister", listerText);
    int limit = Params.limit(ctx, OriginQuery.DEFAULT_LIMIT, 10 * OriginQuery.DEFAULT_LIMIT);
    OriginPage page =
        drover
            .frontier()
            .originList(
                new OriginQuery(lister, null, List.of(), null, limit, ctx.queryParam("page")));
    Map<UUID, Lister> byId = ApiBridge.listersById(drover);
    ArrayNode items = Json.array();
    page.origins().forEach(o -> items.add(ApiBridge.origin(o, byId)));
    var body = Json.object();
    body.set("items", items);
    body.put("next", page.nextPageToken());
    Reply.json(ctx, body);
  }

  /** {@code GET /frontier-metrics?lister=UUID&visit_type=T}: as {@code metrics show --json}. */
  void frontierMetrics(Context ctx) {
    String listerText = ctx.queryParam("lister");
    UUID lister = listerText == null ? null : uuid("lister", listerText);
    Map<UUID, Lister> byId = ApiBridge.listersById(drover);
    ArrayNode a = Json.array();
    drover
        .frontier()
        .metricsGet(lister, ctx.queryParam("visit_type"))
        .forEach(m -> a.add(ApiBridge.metrics(m, byId)));
    Reply.json(ctx, a);
  }

  private static UUID uuid(String field, String text) {
    try {
      return UUID.fromString(text.trim());
    } catch (IllegalArgumentException e) {
      throw new dev.drover.ValidationException(field, "expected a UUID, got '" + text + "'");
    }
  }
}
