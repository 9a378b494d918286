package dev.drover.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.frontier.Cooldowns;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.SchedulerMetrics;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * Row mappers of the frontier tables, and how their values are bound. Uuids are bound as text on
 * both databases (PostgreSQL's connection binds text parameters as untyped, see {@link Stores}).
 */
final class FrontierRows {
  final RowMapper<Lister> lister;
  final RowMapper<ListedOrigin> listedOrigin;

  /** What a recording returns of a row it stored (see {@link Recorded}). */
  final RowMapper<Recorded> recorded;

  /** A listed origin chosen by a grab, with the queue position its listed row holds. */
  final RowMapper<Grabbed> grabbed;

  final RowMapper<OriginVisitStats> visitStats;
  final RowMapper<SchedulerMetrics> metrics;

  FrontierRows(DialectSql dialect) {
    Columns c = new Columns(dialect);
    lister =
        (rs, ctx) ->
            new Lister(
                UUID.fromString(rs.getString("id")),
                rs.getString("name"),
                rs.getString("instance_name"),
                c.instant(rs, "created"),
                Json.readObject(rs.getString("current_state")),
                c.instant(rs, "updated"),
                c.instant(rs, "last_listing_finished_at"),
                rs.getString("first_visits_queue_prefix"),
                c.instant(rs, "first_visits_scheduled_at"));
    listedOrigin =
        (rs, ctx) ->
            new ListedOrigin(
                UUID.fromString(rs.getString("lister_id")),
                rs.getString("url"),
                rs.getString("visit_type"),
                Json.readObject(rs.getString("extra_loader_arguments")),
                rs.getBoolean("enabled"),
                c.instant(rs, "first_seen"),
                c.instant(rs, "last_seen"),
                c.instant(rs, "last_update"),
                nullableBoolean(rs, "is_fork"),
                rs.getString("forked_from_url"));
    recorded =
        (rs, ctx) ->
            new Recorded(
                rs.getInt("position") - 1,
                c.instant(rs, "first_seen"),
                Json.readObject(rs.getString("extra_loader_arguments")));
    grabbed =
        (rs, ctx) ->
            new Grabbed(listedOrigin.map(rs, ctx), nullableLong(rs, "next_visit_queue_position"));
    visitStats =
        (rs, ctx) -> {
          String status = rs.getString("last_visit_status");
          return new OriginVisitStats(
              rs.getString("url"),
              rs.getString("visit_type"),
              c.instant(rs, "last_successful"),
              c.instant(rs, "last_visit"),
              status == null ? null : LastVisitStatus.parse("last_visit_status", status),
              c.instant(rs, "last_scheduled"),
              rs.getString("last_snapshot"),
              nullableLong(rs, "next_visit_queue_position"),
              rs.getInt("next_position_offset"),
              rs.getInt("successive_visits"));
        };
    metrics =
        (rs, ctx) ->
            new SchedulerMetrics(
                UUID.fromString(rs.getString("lister_id")),
                rs.getString("visit_type"),
                c.instant(rs, "last_update"),
                rs.getLong("origins_known"),
                rs.getLong("origins_enabled"),
                rs.getLong("origins_never_visited"),
                rs.getLong("origins_with_pending_changes"));
  }

  record Grabbed(ListedOrigin origin, Long queuePosition) {}

  /**
   * Of a row a recording stored, what its origin in the batch does not say: the origin's index in
   * the batch, the row's first_seen (null when the recording inserted it) and its extra loader
   * arguments as the database holds them.
   */
  record Recorded(int index, Instant firstSeen, ObjectNode extraLoaderArguments) {
    /**
     * The row stored for {@code given} by a recording at {@code storedNow} (its time as stored,
     * {@link Columns#toMillis}): what the lister said, with its last update to the millisecond as
     * stored, first seen now unless listed before, last seen now.
     */
    ListedOrigin storedFor(ListedOrigin given, Instant storedNow) {
      return new ListedOrigin(
          given.listerId(),
          given.url(),
          given.visitType(),
          extraLoaderArguments,
          given.enabled(),
          firstSeen != null ? firstSeen : storedNow,
          storedNow,
          Columns.toMillis(given.lastUpdate()),
          given.isFork(),
          given.forkedFromUrl());
    }
  }

  /** A uuid as it is bound: lower-case text, or null. */
  static String text(UUID id) {
    return id == null ? null : id.toString();
  }

  /** How many values one IN list holds: far below either database's parameter limit. */
  static final int IN_LIST = 500;

  /**
   * How recent a time must be for a stats write or a new listing at {@code now} to take its origin
   * out of the grab indexes, by the parameter the statements name each bound with: a scheduling, as
   * awaiting a visit, later than :awaiting_after; a failed visit, or one that found no origin, as
   * cooling, later than :failed_cooling_after or :not_found_cooling_after. Each bound is {@code
   * now} less that default cooldown: an older time would go back into the indexes at the next grab.
   */
  static Map<String, Instant> defaultCooldownBounds(Instant now) {
    return Map.of(
        "awaiting_after", now.minus(Cooldowns.DEFAULT.scheduled()),
        "failed_cooling_after", now.minus(Cooldowns.DEFAULT.failed()),
        "not_found_cooling_after", now.minus(Cooldowns.DEFAULT.notFound()));
  }

  /**
   * {@code list} in pieces of at most {@code size}, to keep IN lists under the parameter limits.
   */
  static <T> List<List<T>> chunks(List<T> list, int size) {
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i += size) {
      out.add(list.subList(i, Math.min(list.size(), i + size)));
    }
    return out;
  }

  private static Boolean nullableBoolean(ResultSet rs, String column) throws SQLException {
    boolean v = rs.getBoolean(column);
    return rs.wasNull() ? null : v;
  }

  private static Long nullableLong(ResultSet rs, String column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }
}
