package dev.drover.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.VisitRequest;
import dev.drover.model.ArchivePage;
import dev.drover.model.Event;
import dev.drover.model.NewTask;
import dev.drover.model.RunToSchedule;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskFamily;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.schedule.PriorityShares;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The durable state of Drover: task types, tasks and task runs. One contract, implemented on SQLite
 * and PostgreSQL and tested by one suite on both. Methods that depend on time take {@code now}; the
 * store never reads a clock. Every method is its own transaction: it happens whole or not at all.
 */
public interface Store extends AutoCloseable {

  /** Which database this store runs on. */
  Dialect dialect();

  /**
   * Where the data lives, for messages: the data directory, or the PostgreSQL URL without its
   * parameters (which may hold a password).
   */
  String where();

  /** The process table and leader leases. */
  RunnerTable runners();

  /**
   * Calls {@code listener}, from any thread, whenever tasks may have become due: created, enabled,
   * released or rescued, by this process or (on PostgreSQL) by another. Runners use it to wake up;
   * it is a hint, so they still poll. Closing the returned handle unsubscribes.
   */
  AutoCloseable onWork(Runnable listener);

  /**
   * Lets {@code claimer}, a runner of this process, take each task this store creates alone (one
   * task per call) in the transaction that creates it, when it has a worker slot free for it (see
   * {@link CreateClaimer}). Closing the returned handle withdraws it.
   */
  AutoCloseable claimOnCreate(CreateClaimer claimer);

  /** The crawl frontier (listers, listed origins, visit stats) in the same database. */
  FrontierStore frontier();

  // ---- task types, worker groups, settings

  /**
   * Creates {@code type} unless one of that name exists (the first definition wins); true if
   * created.
   */
  boolean taskTypeCreate(TaskType type);

  /** Creates or replaces {@code type}; says which happened. */
  UpsertResult taskTypeUpsert(TaskType type);

  Optional<TaskType> taskTypeGet(String name);

  List<TaskType> taskTypeList();

  void workerGroupUpsert(WorkerGroup group);

  List<WorkerGroup> workerGroupList();

  void settingPut(String name, String value);

  Map<String, String> settingList();

  // ---- tasks

  /**
   * Creates tasks, skipping any that duplicate a stored task or an earlier one in the batch, and
   * returns the stored task for each distinct input, in input order. All or nothing.
   */
  List<Task> taskCreate(List<NewTask> tasks, Instant now);

  /**
   * As {@link #taskCreate(List, Instant)}, written on the application's {@code connection} inside
   * its open transaction, which Drover neither commits nor closes: the tasks exist (and on
   * PostgreSQL runners are notified) only if the application commits.
   */
  List<Task> taskCreate(java.sql.Connection connection, List<NewTask> tasks, Instant now);

  /**
   * Creates the tasks {@code tasks} yields as {@link #taskCreate} does, a chunk at a time and all
   * in one transaction, so a file of millions of tasks is never held whole and is still all or
   * nothing: an exception from the iterator (an invalid line, say) undoes every chunk before it.
   * {@code stored} gets the stored task of each input of a chunk once the chunk is written (not yet
   * committed). Returns how many inputs there were.
   */
  long taskCreateAll(Iterator<NewTask> tasks, Instant now, Consumer<List<Task>> stored);

  /**
   * Adds {@code tasks} under {@code parent}, never merged with existing tasks. A parent awaiting
   * its children waits for these too; a oneshot parent that is done or failed takes them into its
   * tree and stays sealed. Any other parent is refused (a ValidationException naming "parent"): its
   * next run's children would reset its count.
   */
  List<Task> taskCreateChildren(long parent, List<NewTask> tasks, Instant now);

  /**
   * A visit scheduling pass, in one transaction: grabs each of {@code requests} in turn at {@code
   * now}, as {@link FrontierStore#originGrabNextVisits} does, and creates the tasks {@code tasks}
   * makes of all the origins grabbed, as {@link #taskCreate} does. So an origin is marked scheduled
   * with its visit task or not at all. Returns what each request grabbed, in order; no request may
   * be a dry run.
   */
  List<List<ListedOrigin>> visitSchedule(
      List<VisitRequest> requests, VisitTasks tasks, Instant now);

  /** Makes the visit tasks of a pass's origins ({@link #visitSchedule}). */
  @FunctionalInterface
  interface VisitTasks {
    /** The tasks for {@code origins}; {@code listers} holds the listers that list them, by id. */
    List<NewTask> of(List<ListedOrigin> origins, Map<UUID, Lister> listers);
  }

  List<Task> taskGet(List<Long> ids);

  List<Task> taskSearch(TaskQuery query);

  /** Where the tasks stand in their trees, in id order; unknown ids are left out. */
  List<TaskFamily> taskFamily(List<Long> ids);

  /** Up to {@code limit} children of {@code parent} with an id above {@code afterId}, by id. */
  List<Task> taskChildren(long parent, long afterId, int limit);

  /**
   * Sets the status (and, if given, next_run) of tasks; with {@code exceptCompleted}, leaves alone
   * tasks that completed or whose next_run is not before {@code now}. Disabling (without a
   * next_run) also ends the runs of those tasks that have not ended, {@code lost} with {@code
   * disabled: true} and nothing charged: a runner executing one loses its lease and cancels the
   * work. Returns how many changed.
   */
  int taskSetStatus(
      List<Long> ids, TaskStatus status, Instant nextRun, boolean exceptCompleted, Instant now);

  /**
   * Makes disabled tasks due at {@code nextRun} with their type's retries; returns how many
   * changed.
   */
  int taskEnable(List<Long> ids, Instant nextRun);

  // ---- operator control: with {@code tree}, a task and every task below it

  /**
   * Pauses the tasks that wait for a run: never due until resumed. Running tasks finish their run
   * and are paused then; final tasks and parents waiting for children are left alone. Returns how
   * many were paused or marked to pause at their run's end.
   */
  int taskPause(List<Long> ids, boolean tree);

  /**
   * Resumes paused tasks, due at their kept next run, and unmarks running ones; returns how many.
   */
  int taskResume(List<Long> ids, boolean tree);

  /**
   * Pauses or resumes a task type: its tasks are not claimed while it is paused; work running
   * finishes. False if there is no such type.
   */
  boolean taskTypePause(String name, boolean paused);

  /**
   * Cancels the tasks that are not final: disabled by an operator, a running one stopped (its run
   * ends {@code cancelled}, nothing charged, and its runner finds the lease gone), counted as
   * failed by a waiting parent. Returns how many were cancelled.
   */
  int taskCancel(List<Long> ids, boolean tree, Instant now);

  /**
   * Makes tasks due at {@code now} with their type's retries back: failed, disabled, cancelled,
   * done or waiting ones; running tasks and waiting parents are left alone. Returns how many.
   */
  int taskRetry(List<Long> ids, Instant now);

  /** Cancels, then deletes tasks with all their runs; says what it removed. */
  TaskDeletion taskDelete(List<Long> ids, boolean tree, Instant now);

  /** Ready tasks of {@code type} without priority, oldest due first; changes nothing. */
  List<Task> taskPeekReady(String type, Instant now, int limit);

  /** Ready prioritized tasks of {@code type}, split by {@code shares}; changes nothing. */
  List<Task> taskPeekReadyPriority(String type, Instant now, int limit, PriorityShares shares);

  /**
   * Grabs ready tasks of {@code type}: up to {@code priorityLimit} prioritized ones split by {@code
   * shares}, then tasks without priority up to {@code limit} plus whatever the priority budget left
   * unused. Grabbed tasks become {@code next_run_scheduled}. Safe under concurrent grabbers: no
   * task is handed out twice.
   */
  List<Task> taskGrabReady(
      String type, Instant now, int limit, int priorityLimit, PriorityShares shares);

  /** Tasks per type and status, from the counts the database keeps as tasks change. */
  List<StatusCount> taskCountByTypeAndStatus();

  /**
   * Folds the rows the count triggers appended into one per type and status (PostgreSQL); keeps
   * {@link #taskCountByTypeAndStatus} a read of a few rows. Run by the leader every few seconds.
   */
  void taskCountCompact();

  /** Per task type with any, how many disabled tasks an operator disabled or cancelled. */
  Map<String, Long> taskCountDisabledByOperator();

  /** How many tasks of the tree under {@code root} (the root included) are in each status. */
  Map<TaskStatus, Long> taskCountByRoot(long root);

  /** Per task type with any, how many tasks are due at {@code now} (waiting, next run passed). */
  Map<String, Long> taskCountDueByType(Instant now);

  // ---- task runs

  /**
   * Opens a scheduled run per entry, all or nothing; a task that does not exist is refused with a
   * {@link dev.drover.ValidationException}.
   */
  List<TaskRun> taskRunSchedule(List<RunToSchedule> runs);

  /** Marks the run started with its metadata merged; empty if no run has that backend id. */
  Optional<TaskRun> taskRunStart(String backendId, ObjectNode metadata, Instant at);

  /**
   * Ends the run with {@code status} and its metadata merged, and reschedules its task as {@link
   * dev.drover.schedule.Rescheduler} says, in one transaction; empty if no run has that backend id.
   */
  Optional<TaskRun> taskRunEnd(
      String backendId, TaskRunStatus status, ObjectNode metadata, Instant at);

  Optional<TaskRun> taskRunGet(String backendId);

  /** Runs, newest first, of the given tasks (all tasks when empty), optionally of one status. */
  List<TaskRun> taskRunList(List<Long> taskIds, TaskRunStatus status, int limit);

  /**
   * Up to {@code limit} runs not ended yet (scheduled or started), with their task's type and the
   * runner that owns them, by owner then run id: what each runner is working on now.
   */
  List<OpenRun> taskRunOpen(int limit);

  /** The names of the paused task types, by name. */
  List<String> taskTypeListPaused();

  // ---- claims and leases (the runner's protocol; see DESIGN.md, "claim before you act")

  /**
   * One pass of a runner, in one transaction: marks the queued runs in {@code pass.started()}
   * started (those not ended meanwhile), writes the completions fenced by their leases, then claims
   * what {@code pass.claims()} asks for, queued: no run is written for a claim until a later pass
   * carries its start or its end. A completion whose lease was lost (rescued, or claimed again) is
   * not written; its lease is in {@link PassResult#rejected}. If anything fails, nothing is
   * written. This is the store's one claim and completion path.
   */
  PassResult taskPass(Pass pass);

  /** Extends the leases {@code owner} still holds to {@code leaseUntil}; returns those it lost. */
  List<Lease> taskHeartbeat(String owner, List<Lease> leases, Instant leaseUntil);

  /**
   * Finds up to {@code limit} leases that expired before {@code now}, marks their runs {@code lost}
   * and reschedules their tasks as a failed attempt. A claim whose run was never written (no worker
   * began it) is given back as a release is, due now and nothing charged. Returns the task ids.
   */
  List<Long> taskRescueExpired(Instant now, int limit);

  /**
   * Takes back every lease {@code owner} holds, because that runner is gone: with {@code charge} as
   * the rescuer does (runs {@code lost}, a failed attempt), else as a release (due now, nothing
   * charged). Returns the task ids.
   */
  List<Long> taskRescueOwner(String owner, Instant now, boolean charge);

  /**
   * Gives back leases {@code owner} holds without charging an attempt: the task is due at {@code
   * now}, and its open run is ended {@code lost} with {@code released: true}. Returns how many were
   * released.
   */
  int taskRelease(String owner, List<Lease> leases, Instant now);

  /**
   * How many tasks of {@code types} are due at {@code now}, leased, or waiting for a retry: a
   * runner that exits when idle keeps going while this is not zero.
   */
  long taskCountOutstanding(List<String> types, Instant now);

  /**
   * Of {@code types}, the tasks not due at {@code now} that a runner exiting when idle still waits
   * for: retries, and one-shot tasks due later.
   */
  TaskWaiting taskWaiting(List<String> types, Instant now);

  /**
   * When, strictly between {@code after} and {@code before}, the next task of {@code types} waiting
   * for its next run comes due or the next lease ends; empty when none does. A runner asks for the
   * time it is about to sleep: work due already waits for a free slot, and what comes later does
   * not shorten the sleep.
   */
  Optional<Instant> taskNextDue(List<String> types, Instant after, Instant before);

  /**
   * The earliest next run of the waiting tasks of {@code type} (due already when it has passed);
   * empty when none waits. For the age of the oldest due task in metrics.
   */
  Optional<Instant> taskOldestWaiting(String type);

  // ---- event log

  void eventAppend(List<Event> events);

  /** Up to {@code limit} events with an id above {@code afterId}, oldest first. */
  List<Event> eventList(long afterId, int limit);

  /** The newest {@code limit} events, oldest first. */
  List<Event> eventTail(int limit);

  // ---- archival

  /** A page of runs of finished tasks with run time in {@code [after, before)}. */
  ArchivePage taskRunArchivable(Instant after, Instant before, int limit, String pageToken);

  /** Deletes the runs, then those of the tasks that have no run left. */
  ArchiveDeletion archiveDelete(List<Long> taskIds, List<Long> taskRunIds);

  /** How many rows an archive deletion removed. */
  record ArchiveDeletion(int taskRuns, int tasks) {}

  /** What a delete removed: the tasks, and their runs (whose directories the caller removes). */
  record TaskDeletion(int tasks, List<DeletedRun> runs) {
    public TaskDeletion {
      runs = List.copyOf(runs);
    }
  }

  /** A deleted run: its directory is {@code <runs dir>/<type>/<backendId>}. */
  record DeletedRun(String type, String backendId) {}

  /** What an upsert did. */
  enum UpsertResult {
    CREATED,
    UPDATED,
    UNCHANGED
  }

  /**
   * The connection pool underneath, for metrics of its use; empty when the store has none of its
   * own.
   */
  default Optional<javax.sql.DataSource> dataSource() {
    return Optional.empty();
  }

  @Override
  void close();
}
