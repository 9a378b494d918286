package dev.drover.store;

import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.model.Task;
import dev.drover.schedule.TaskUpdate;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * What differs between SQLite and PostgreSQL beyond the text of their SQL files, one implementation
 * per database ({@link SqliteSql}, {@link PostgresSql}), chosen once when the store is opened: the
 * shared code calls this and never asks which database it runs on.
 *
 * <p>Mostly it is how a batch reaches the database. Every PostgreSQL statement is a round trip, so
 * a batch goes as parallel arrays in one statement; SQLite runs in process, so a prepared statement
 * per row in a JDBC batch costs nothing more and keeps its SQL plain. The rest is how instants are
 * stored and the few things only one database has (advisory locks, NOTIFY, TABLESAMPLE).
 */
interface DialectSql {
  /** Which database this is. */
  Dialect dialect();

  /** This database's SQL files. */
  SqlFiles files();

  // ---- instants

  /** The JDBC type instants are bound as. */
  int instantSqlType();

  /** The value to bind for {@code t}, already truncated to milliseconds; never null. */
  Object instantValue(Instant t);

  /** The instant stored in {@code column}, or null. */
  Instant instant(ResultSet rs, String column) throws SQLException;

  // ---- tasks and runs

  /**
   * Prepares {@code taskInsertUnlessDuplicate} for how this database announces new work; returns
   * true if the statement announces it itself (else the caller does).
   */
  boolean bindInsertSignal(Query insert);

  /**
   * Binds {@code taskFindDuplicates}' types and argument hashes, and what else it takes: SQLite's
   * takes them as JSON arrays and names the waiting status as a parameter; PostgreSQL's takes them
   * as arrays and the status as a literal (each file says why). Either way the statement's text is
   * the same for any number of them.
   */
  void bindDuplicateLookup(Query lookup, List<String> types, List<String> hashes);

  /** taskInsertMany's text ({@code file}) for a chunk of {@code rows} new tasks. */
  String taskInsertText(String file, int rows);

  /**
   * Binds {@code rows} to {@code insert}, prepared from {@link #taskInsertText} for their count.
   */
  void bindTaskInsert(PreparedStatement insert, List<TaskInserts.NewTaskRow> rows)
      throws SQLException;

  /**
   * Runs {@code work}, whose reads come before its only write, a single statement, with what {@code
   * jdbi.inTransaction} would guarantee it but at less cost: creating one task does this.
   */
  <T> T inSingleWrite(Jdbi jdbi, HandleCallback<T, RuntimeException> work);

  /**
   * Binds {@code ids} as the one parameter {@code :name} of a query that reads it as a list of task
   * ids ({@code taskClaim}): one parameter whatever the count, so the statement's text stays the
   * same and is parsed and prepared once, not once per list length.
   */
  void bindIds(Query query, String name, List<Long> ids);

  /**
   * Writes {@code updates} to the tasks of {@code completions} that {@code owner} still holds and
   * that are still exactly as claimed ({@code taskUpdateAfterRunAsClaimed}); says which it wrote.
   */
  boolean[] updateAsClaimed(
      Handle h, String owner, List<Completion> completions, List<TaskUpdate> updates);

  /**
   * Which of {@code completions} {@code updateAsClaimed}'s statement updated, from the task ids it
   * returned.
   */
  static boolean[] updatedAmong(List<Completion> completions, Collection<Long> returnedIds) {
    Set<Long> ids = new HashSet<>(returnedIds);
    boolean[] updated = new boolean[completions.size()];
    for (int i = 0; i < updated.length; i++) {
      updated[i] = ids.contains(completions.get(i).claimed().task().id());
    }
    return updated;
  }

  /**
   * Writes the ends of {@code endings}' runs at {@code at} ({@code taskRunEndMany}), each with its
   * merged {@code metadata}.
   */
  void endRuns(
      Handle h, String owner, List<RunEnder.Ending> endings, List<String> metadata, Instant at);

  /**
   * Writes the runs of {@code started}, queued claims of {@code owner} that its workers have begun,
   * if their leases are still held ({@code taskRunInsertStarted}); {@code started} is not empty.
   */
  void insertStarted(Handle h, String owner, List<RunStarted> started);

  /**
   * Adds {@code moves} to the status counts in the statement's transaction: the changes the row
   * trigger leaves to the store, a claim's and those of the statements that take a leased task's
   * owner away (V025 to V027).
   */
  void countMoves(Handle h, StatusMoves moves);

  /**
   * Runs {@code release}, {@code taskRelease} or {@code taskReleaseUnbegun} with its parameters
   * bound, which gives a claimed task back; true if it did. Its change of status is counted.
   */
  boolean giveBack(Handle h, Query release);

  /**
   * Cancels the tasks among {@code ids} that are not final ({@code taskCancel}, which binds them as
   * a list); returns their ids. Their changes of status are counted.
   */
  List<Long> cancel(Handle h, List<Long> ids);

  /**
   * Writes each of {@code tasks}' {@code updates} after its run ended ({@code taskUpdateAfterRun}),
   * which takes its owner away. Their changes of status are counted.
   */
  void updateAfterRun(Handle h, List<Task> tasks, List<TaskUpdate> updates);

  /**
   * Whether a claimed task's entry stays in the claim index until a vacuum (PostgreSQL), so that
   * claims start past the tasks this process claimed last ({@link ClaimFloors}, whose parameters
   * {@code taskClaimCandidates} then takes); SQLite removes it with the update.
   */
  boolean claimIndexKeepsClaimedEntries();

  /**
   * Locks {@code ids}, tasks about to be deleted, before their runs are read and deleted: a run
   * keeps its task by locks, not by a foreign key, on PostgreSQL (V019).
   */
  void lockTasksForDeletion(Handle h, List<Long> ids);

  // ---- the frontier

  /**
   * Holds the frontier write lock of each of {@code visitTypes} (distinct, sorted) in {@code mode}
   * until the transaction ends; see {@link VisitTypeLocks}.
   */
  void lockVisitTypes(Handle h, List<String> visitTypes, VisitTypeLocks.Mode mode);

  /**
   * Holds the recording lock of each of {@code listers} alone until the transaction ends; see
   * {@link VisitTypeLocks#lockForRecording}.
   */
  void lockListers(Handle h, Collection<UUID> listers);

  /** Records {@code origins} (distinct keys) and returns them as stored, in the same order. */
  List<ListedOrigin> recordOrigins(
      Handle h, List<ListedOrigin> origins, Instant now, FrontierRows rows);

  /** Records that {@code urls} (distinct) of {@code visitType} were handed out at {@code now}. */
  void markScheduled(Handle h, String visitType, List<String> urls, Instant now);

  /**
   * Merges {@code stats} in (nulls keep stored values), a listed url's in its listed rows (V028,
   * V029), the others' in origin_visit_stats.
   */
  void upsertStats(Handle h, List<OriginVisitStats> stats);

  /** Writes {@code stats} as given, nulls included, where {@link #upsertStats} writes them. */
  void replaceStats(Handle h, List<OriginVisitStats> stats);

  /**
   * Binds what the dialect's {@code visitGrabSampled.sql} needs to consider about {@code percent} %
   * of the listed origins.
   */
  void bindSample(Query grab, double percent);

  /**
   * The database's plan for {@code query} (a SELECT), one line per node: on PostgreSQL executed,
   * with its times and buffers; on SQLite the plan it chose, indented by depth.
   */
  List<String> plan(Handle h, String query, UnaryOperator<Query> bind);
}
