package dev.drover.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.drover.Drover;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import io.javalin.http.Context;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The crawl frontier's writes, for listers that run elsewhere (any language, any machine): add a
 * lister, record a page of the origins it listed. Reads are {@link ReadRoutes}.
 */
final class FrontierRoutes {
  /** Origins a request, as a lister records a page. */
  static final int MAX_ORIGINS = 1_000;

  private final Drover drover;

  FrontierRoutes(Drover drover) {
    this.drover = drover;
  }

  /**
   * {@code POST /listers}: the lister of that name and instance, as {@code lister add --json}: 201
   * when this request created it, 200 when it existed (as {@code POST /task-types}).
   */
  void addLister(Context ctx) {
    Fields f =
        Fields.of(JsonBody.read(ctx), "", "{\"name\": \"github\"}")
            .onlyKeys(List.of("name", "instance_name", "first_visits_queue_prefix"));
    String name = f.requiredText("name", "a lister's name");
    String instance = f.text("instance_name");
    boolean existed = drover.frontier().listerGet(name, instance).isPresent();
    Lister l =
        drover
            .frontier()
            .listerGetOrCreate(name, instance, f.text("first_visits_queue_prefix"), drover.now());
    Reply.json(ctx, existed ? 200 : 201, ApiBridge.lister(l));
  }

  /**
   * {@code POST /origins}: {@code {"lister": NAME, "instance": INSTANCE, "origins": [...]}}, each
   * origin with the keys of a line of {@code origin record}'s file. Records up to 1,000 in one
   * transaction, as {@code origin record} records a batch: a listing of millions is sent a page at
   * a time. Answers the stored origins as {@code origin record --json}.
   */
  void recordOrigins(Context ctx) {
    Fields f =
        Fields.of(
                JsonBody.read(ctx),
                "",
                "{\"lister\": \"github\", \"origins\": [{\"url\": \"https://...\", \"visit_type\":"
                    + " \"git\"}]}")
            .onlyKeys(List.of("lister", "instance", "origins"));
    JsonNode origins = f.raw("origins");
    ValidationException.check(
        origins != null && origins.isArray(), "origins", "an array of origins is required");
    ValidationException.check(
        origins.size() <= MAX_ORIGINS,
        "origins",
        "at most "
            + MAX_ORIGINS
            + " a request, got "
            + origins.size()
            + " (send a listing a page at a time)");
    List<ListedOrigin> stored =
        drover
            .frontier()
            .originRecord(
                ApiBridge.originsToRecord(drover, origins, f.text("lister"), f.text("instance")),
                drover.now());
    Map<UUID, Lister> byId = ApiBridge.listersById(drover);
    ArrayNode a = Json.array();
    stored.forEach(o -> a.add(ApiBridge.origin(o, byId)));
    Reply.json(ctx, a);
  }
}
