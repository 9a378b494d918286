package dev.drover.store;

import java.util.Collection;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Makes the frontier's writers take turns per visit type. A frontier write reaches every lister's
 * row of a url (where a listed url's stats are, see V028) and both listed_origin and
 * origin_visit_stats, in orders no single rule fits (a grab reads rows in its policy's order, a
 * recording moves a url's stats row into its new rows), so two writers of one url could deadlock.
 * Every frontier write transaction therefore begins by taking a transaction-scoped lock per visit
 * type it touches, in sorted order, in one of three {@link Mode}s: writers of one visit type queue,
 * writers of different visit types touch different rows. SQLite needs nothing: it has one writer,
 * and every transaction begins IMMEDIATE.
 *
 * <p>On PostgreSQL a mode is advisory locks: the visit type's lock, shared by recordings and stats
 * writers and taken alone by every other writer, and then eight stats slots, all shared by a
 * recording and one alone by a stats writer. Recordings so run beside recordings, and stats writers
 * beside up to seven other stats writers, but never one kind beside the other. A recording then
 * holds a lock of each lister it records for, alone: recordings of different listers run together.
 */
final class VisitTypeLocks {
  /** How a writer shares a visit type. */
  enum Mode {
    /** Alone: grabs, visit results, disabling, anything that reads before it writes. */
    ALONE,
    /**
     * Shared with recordings for other listers. A recording writes only the rows of the listers it
     * names, so recordings of different listers never meet on a row, and recordings of one lister
     * take turns: one statement may reach its rows in any order its plan takes (a join in heap
     * order, which each transaction's snapshot sees differently), and two of them on the same rows
     * could each hold a row the other waits for. A recording also copies the url's stored stats
     * into the rows it creates: a stats write beside it could miss a row the recording has not
     * committed yet, so stats writers wait for recordings, and they for them.
     */
    RECORDING,
    /**
     * Shared with other blind stats writes (upserts and replacements: no read before the write). On
     * SQLite writers never run together. On PostgreSQL a write updates every listed row of its urls
     * (where a listed url's stats are, V028) in its sorted batch's order, then writes the stats
     * rows of the urls no lister lists in key order, so two writers of the same urls queue on their
     * first common row. The update's order is its plan's, which PostgreSQL does not promise, so two
     * can still deadlock; the store then writes the victim's batch again ({@link DeadlockRetry}).
     */
    STATS
  }

  private final DialectSql dialect;

  VisitTypeLocks(DialectSql dialect) {
    this.dialect = dialect;
  }

  /** Waits for, then holds alone until the transaction ends, the locks of {@code visitTypes}. */
  void lock(Handle h, Collection<String> visitTypes) {
    lock(h, visitTypes, Mode.ALONE);
  }

  /**
   * As {@link #lock}, shared with recordings ({@link Mode#RECORDING}), and then, alone, the locks
   * of {@code listers}, whose rows the recording writes.
   */
  void lockForRecording(Handle h, Collection<String> visitTypes, Collection<UUID> listers) {
    lock(h, visitTypes, Mode.RECORDING);
    dialect.lockListers(h, listers);
  }

  /** As {@link #lock}, shared with other blind stats writes ({@link Mode#STATS}). */
  void lockForStats(Handle h, Collection<String> visitTypes) {
    lock(h, visitTypes, Mode.STATS);
  }

  private void lock(Handle h, Collection<String> visitTypes, Mode mode) {
    dialect.lockVisitTypes(h, visitTypes.stream().distinct().sorted().toList(), mode);
  }
}
