package dev.drover.store;

import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Something that must change with the end of a run, in the same transaction, so that a crash can
 * never record the end without it: visit outcomes into visit stats today, a parent's children
 * counts for workflows next. {@link RunEnder} calls every hook once per transaction that ended
 * runs, last in it, with all the runs it ended (lost ones too: a hook decides what they mean).
 * Register a hook in {@link JdbiStore}.
 */
interface RunEndHook {
  /**
   * Called inside the transaction that ended {@code runs}, after their runs and tasks are written.
   *
   * @param runs the runs the transaction ended, never empty
   * @param at when they ended
   */
  void ended(Handle h, List<EndedRun> runs, Instant at);
}
