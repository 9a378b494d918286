package dev.drover.store;

import dev.drover.model.TaskStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The status changes of one statement that the status counts' row trigger leaves to the store (a
 * claim, an owner taken away: V025 to V027), added up per type and status for one write to
 * task_count in the statement's transaction ({@link DialectSql#countMoves}).
 */
final class StatusMoves {
  private static final String WAITING = TaskStatus.NEXT_RUN_NOT_SCHEDULED.dbName();
  private static final String LEASED = TaskStatus.NEXT_RUN_SCHEDULED.dbName();

  private final Map<List<String>, Long> byTypeAndStatus = new LinkedHashMap<>();

  /** A claim leased {@code n} waiting tasks of {@code type}. */
  StatusMoves claimed(String type, long n) {
    return move(type, WAITING, LEASED, n);
  }

  /** A leased task of {@code type} was given back, now in status {@code to}. */
  StatusMoves givenBack(String type, String to) {
    return move(type, LEASED, to, 1);
  }

  private StatusMoves move(String type, String from, String to, long n) {
    if (!from.equals(to)) {
      byTypeAndStatus.merge(List.of(type, from), -n, Long::sum);
      byTypeAndStatus.merge(List.of(type, to), n, Long::sum);
    }
    return this;
  }

  /** What to add per (type, status), without the pairs that came to nothing. */
  Map<List<String>, Long> nonZero() {
    Map<List<String>, Long> out = new LinkedHashMap<>(byTypeAndStatus);
    out.values().removeIf(n -> n == 0);
    return out;
  }
}
