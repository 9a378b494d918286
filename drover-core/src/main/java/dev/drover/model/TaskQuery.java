package dev.drover.model;

import static dev.drover.ValidationException.check;

import java.time.Instant;
import java.util.List;

/**
 * A task search. Empty lists and nulls match everything; the filters are ANDed.
 *
 * @param before {@code next_run <= before}
 * @param after {@code next_run >= after}
 * @param limit most rows to return; null for all
 * @param afterId {@code id > afterId}, for keyset pagination (rows come in id order); null for all
 */
public record TaskQuery(
    List<Long> ids,
    List<String> types,
    List<TaskStatus> statuses,
    List<TaskPriority> priorities,
    TaskPolicy policy,
    Instant before,
    Instant after,
    Integer limit,
    Long afterId) {

  public TaskQuery {
    ids = ids == null ? List.of() : List.copyOf(ids);
    types = types == null ? List.of() : List.copyOf(types);
    statuses = statuses == null ? List.of() : List.copyOf(statuses);
    priorities = priorities == null ? List.of() : List.copyOf(priorities);
    check(limit == null || limit > 0, "limit", "must be positive, got " + limit);
    check(
        before == null || after == null || !after.isAfter(before),
        "after",
        "after " + after + " is later than before " + before);
  }

  /** A search without keyset pagination. */
  public TaskQuery(
      List<Long> ids,
      List<String> types,
      List<TaskStatus> statuses,
      List<TaskPriority> priorities,
      TaskPolicy policy,
      Instant before,
      Instant after,
      Integer limit) {
    this(ids, types, statuses, priorities, policy, before, after, limit, null);
  }

  public static TaskQuery all() {
    return new TaskQuery(null, null, null, null, null, null, null, null);
  }

  public TaskQuery withLimit(Integer n) {
    return new TaskQuery(ids, types, statuses, priorities, policy, before, after, n, afterId);
  }

  /** This search, of the tasks with an id above {@code id} only (the next page's keyset). */
  public TaskQuery withAfterId(Long id) {
    return new TaskQuery(ids, types, statuses, priorities, policy, before, after, limit, id);
  }
}
