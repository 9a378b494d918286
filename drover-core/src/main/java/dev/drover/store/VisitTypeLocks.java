package dev.drover.store;

import java.util.Collection;
import org.jdbi.v3.core.Handle;

/**
 * Makes the frontier's writers take turns per visit type. A frontier write reaches every lister's
 * row of a url (the stats mirror, see V006__frontier.sql) and both listed_origin and
 * origin_visit_stats, in orders no single rule fits (a grab reads rows in its policy's order, a
 * visit result writes stats before the mirror), so two writers of one url could deadlock. Every
 * frontier write transaction therefore begins by taking a transaction-scoped advisory lock per
 * visit type it touches, in sorted order: writers of one visit type queue, writers of different
 * visit types touch different rows. Recordings are the exception: they share the lock among
 * themselves ({@link #lockForRecording}). SQLite needs nothing: it has one writer, and every
 * transaction begins IMMEDIATE.
 */
final class VisitTypeLocks {
  private final DialectSql dialect;

  VisitTypeLocks(DialectSql dialect) {
    this.dialect = dialect;
  }

  /** Waits for, then holds until the transaction ends, the locks of {@code visitTypes}. */
  void lock(Handle h, Collection<String> visitTypes) {
    lock(h, visitTypes, false);
  }

  /**
   * As {@link #lock}, shared with other recordings. Recording writes only the rows of the listers
   * it names, in key order (so two recordings of one key wait for each other without a deadlock),
   * and reads the stats it copies into new rows: recordings of one visit type can run together, and
   * every other writer of it, which may write any lister's rows, waits for them (so that no stats
   * write misses a row a recording was still inserting) as they wait for it.
   */
  void lockForRecording(Handle h, Collection<String> visitTypes) {
    lock(h, visitTypes, true);
  }

  private void lock(Handle h, Collection<String> visitTypes, boolean shared) {
    dialect.lockVisitTypes(h, visitTypes.stream().distinct().sorted().toList(), shared);
  }
}
