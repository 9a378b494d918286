package dev.drover.store;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a claim of a type starts reading each priority level's waiting tasks on PostgreSQL: past
 * the last task this process claimed at that level, in due order (next run, then id).
 *
 * <p>PostgreSQL leaves the index entry of a claimed task in {@code task_claim_by_type_priority}
 * until a vacuum removes it, and claims take the oldest due tasks, so those entries gather at the
 * front of the index, where every claim from the start reads past them. Late in a burn-down of
 * 1,000,000 tasks that was 4,500 index pages and 17-21 ms per claim. SQLite removes an entry as it
 * updates the row, so it has no floors.
 *
 * <p>A floor holds only while the claims of its type keep coming back full (a backlog), and only
 * for {@link #FULL_SCAN_EVERY} after the last claim that read from the start. Tasks that become due
 * below it (a task created with a due time in the past, one released, rescued or left unchosen by
 * another claimer) are therefore claimed at the latest by the next claim that reads from the start:
 * once a claim comes back short, or that period has passed.
 *
 * <p>Memory follows the database: {@link #claimed} is called after the claim's transaction has
 * committed. Thread-safe; concurrent claims of one type in one process at worst read from a floor
 * lower than need be.
 */
final class ClaimFloors {
  /** The longest a claim of a type goes on starting past a floor without reading from the start. */
  static final Duration FULL_SCAN_EVERY = Duration.ofSeconds(1);

  /** A task's place in the due order of its level. */
  record Key(Instant nextRun, long id) {}

  /** What a claim found, to keep once its transaction committed. */
  record Claimed(String type, Instant at, boolean fromStart, boolean full, Map<String, Key> last) {}

  private record Floors(Map<String, Key> byLevel, Instant fromStartAt) {}

  private final Map<String, Floors> byType = new ConcurrentHashMap<>();

  /**
   * The floor of each level for a claim of {@code type} at {@code now}; empty when the claim must
   * read from the start.
   */
  Map<String, Key> at(String type, Instant now) {
    Floors f = byType.get(type);
    if (f == null
        || now.isBefore(f.fromStartAt())
        || !now.isBefore(f.fromStartAt().plus(FULL_SCAN_EVERY))) {
      return Map.of();
    }
    return f.byLevel();
  }

  /** Keeps what a committed claim found. */
  void claimed(Claimed c) {
    if (!c.full()) {
      byType.remove(c.type()); // the backlog is drained: the next claim reads from the start
      return;
    }
    byType.compute(
        c.type(),
        (type, old) -> {
          if (c.fromStart()) {
            return new Floors(Map.copyOf(c.last()), c.at());
          }
          if (old == null) {
            return null; // dropped meanwhile by a short claim
          }
          Map<String, Key> merged = new HashMap<>(old.byLevel());
          merged.putAll(c.last());
          return new Floors(Map.copyOf(merged), old.fromStartAt());
        });
  }
}
