package dev.drover.app;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.frontier.IngestReport;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.SchedulerMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The JSON form and the tables of the crawl frontier's records: listers, origins, visit stats,
 * metrics.
 */
final class FrontierViews {
  private FrontierViews() {}

  static ObjectNode lister(Lister l) {
    ObjectNode o = Json.object();
    o.put("id", l.id().toString());
    o.put("name", l.name());
    o.put("instance_name", l.instanceName());
    o.put("created", instant(l.created()));
    o.put("updated", instant(l.updated()));
    o.set("current_state", l.currentState());
    o.put("last_listing_finished_at", instant(l.lastListingFinishedAt()));
    o.put("first_visits_queue_prefix", l.firstVisitsQueuePrefix());
    o.put("first_visits_scheduled_at", instant(l.firstVisitsScheduledAt()));
    return o;
  }

  static Table listers(List<Lister> listers) {
    Table t = new Table("ID", "NAME", "INSTANCE", "UPDATED", "LAST LISTING", "STATE");
    for (Lister l : listers) {
      t.row(
          l.id(),
          l.name(),
          l.instanceName().isEmpty() ? null : l.instanceName(),
          l.updated(), // the full version, as lister update --expect-updated needs it
          Tables.time(l.lastListingFinishedAt()),
          l.currentState().isEmpty() ? null : JsonViews.compact(l.currentState()));
    }
    return t;
  }

  static ObjectNode origin(ListedOrigin o, Map<UUID, Lister> listers) {
    ObjectNode n = Json.object();
    Lister l = listers.get(o.listerId());
    n.put("lister_id", o.listerId().toString());
    n.put("lister_name", l == null ? null : l.name());
    n.put("lister_instance_name", l == null ? null : l.instanceName());
    n.put("url", o.url());
    n.put("visit_type", o.visitType());
    n.put("enabled", o.enabled());
    n.put("first_seen", instant(o.firstSeen()));
    n.put("last_seen", instant(o.lastSeen()));
    n.put("last_update", instant(o.lastUpdate()));
    n.set("extra_loader_arguments", o.extraLoaderArguments());
    if (o.isFork() != null) {
      n.put("is_fork", o.isFork());
    } else {
      n.putNull("is_fork");
    }
    n.put("forked_from_url", o.forkedFromUrl());
    return n;
  }

  static Table origins(List<ListedOrigin> origins, Map<UUID, Lister> listers) {
    Table t =
        new Table(
            "LISTER", "URL", "VISIT TYPE", "ENABLED", "FIRST SEEN", "LAST SEEN", "LAST UPDATE");
    for (ListedOrigin o : origins) {
      t.row(
          listerName(listers.get(o.listerId()), o.listerId()),
          o.url(),
          o.visitType(),
          o.enabled() ? "yes" : "no",
          Tables.time(o.firstSeen()),
          Tables.time(o.lastSeen()),
          Tables.time(o.lastUpdate()));
    }
    return t;
  }

  static ObjectNode stats(OriginVisitStats s) {
    ObjectNode o = Json.object();
    o.put("url", s.url());
    o.put("visit_type", s.visitType());
    o.put("last_successful", instant(s.lastSuccessful()));
    o.put("last_visit", instant(s.lastVisit()));
    o.put("last_visit_status", s.lastVisitStatus() == null ? null : s.lastVisitStatus().dbName());
    o.put("last_scheduled", instant(s.lastScheduled()));
    o.put("last_snapshot", s.lastSnapshot());
    o.put("next_visit_queue_position", s.nextVisitQueuePosition());
    o.put("next_position_offset", s.nextPositionOffset());
    o.put("successive_visits", s.successiveVisits());
    return o;
  }

  static Table stats(List<OriginVisitStats> stats) {
    Table t =
        new Table(
            "VISIT TYPE",
            "LAST VISIT",
            "STATUS",
            "SUCCESSIVE",
            "LAST SUCCESSFUL",
            "SNAPSHOT",
            "LAST SCHEDULED",
            "QUEUE POSITION",
            "OFFSET");
    for (OriginVisitStats s : stats) {
      t.row(
          s.visitType(),
          Tables.time(s.lastVisit()),
          s.lastVisitStatus() == null ? null : s.lastVisitStatus().dbName(),
          s.successiveVisits(),
          Tables.time(s.lastSuccessful()),
          s.lastSnapshot(),
          Tables.time(s.lastScheduled()),
          s.nextVisitQueuePosition(),
          s.nextPositionOffset());
    }
    return t;
  }

  static ObjectNode metrics(SchedulerMetrics m, Map<UUID, Lister> listers) {
    ObjectNode o = Json.object();
    Lister l = listers.get(m.listerId());
    o.put("lister_id", m.listerId().toString());
    o.put("lister_name", l == null ? null : l.name());
    o.put("lister_instance_name", l == null ? null : l.instanceName());
    o.put("visit_type", m.visitType());
    o.put("last_update", instant(m.lastUpdate()));
    o.put("origins_known", m.originsKnown());
    o.put("origins_enabled", m.originsEnabled());
    o.put("origins_never_visited", m.originsNeverVisited());
    o.put("origins_with_pending_changes", m.originsWithPendingChanges());
    return o;
  }

  static Table metrics(List<SchedulerMetrics> metrics, Map<UUID, Lister> listers) {
    Table t =
        new Table(
            "LISTER",
            "VISIT TYPE",
            "KNOWN",
            "ENABLED",
            "NEVER VISITED",
            "PENDING CHANGES",
            "UPDATED");
    for (SchedulerMetrics m : metrics) {
      t.row(
          listerName(listers.get(m.listerId()), m.listerId()),
          m.visitType(),
          m.originsKnown(),
          m.originsEnabled(),
          m.originsNeverVisited(),
          m.originsWithPendingChanges(),
          Tables.time(m.lastUpdate()));
    }
    return t;
  }

  static ObjectNode ingestReport(IngestReport r) {
    ObjectNode o = Json.object();
    o.put("applied", r.applied());
    o.put("ignored", r.ignored());
    var disabled = o.putArray("disabled");
    r.disabled()
        .forEach(k -> disabled.addObject().put("url", k.url()).put("visit_type", k.visitType()));
    return o;
  }

  /** {@code name} or {@code name/instance}. */
  static String listerName(Lister l, UUID id) {
    if (l == null) {
      return id.toString();
    }
    return l.instanceName().isEmpty() ? l.name() : l.name() + "/" + l.instanceName();
  }

  private static String instant(Instant t) {
    return t == null ? null : t.toString();
  }
}
