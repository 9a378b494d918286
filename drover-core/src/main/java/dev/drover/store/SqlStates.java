package dev.drover.store;

import java.sql.SQLException;

/** The PostgreSQL SQLSTATEs the store answers, and how to find one among a failure's causes. */
final class SqlStates {
  /** unique_violation. */
  static final String UNIQUE_VIOLATION = "23505";

  /** deadlock_detected. */
  static final String DEADLOCK_DETECTED = "40P01";

  private SqlStates() {}

  /** Whether {@code failure} or one of its causes is an SQLException of {@code sqlState}. */
  static boolean causedBy(Throwable failure, String sqlState) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException e && sqlState.equals(e.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
