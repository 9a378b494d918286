package dev.drover.model;

import java.util.Locale;

/** What an {@link Event} records; stored by its {@link #dbName()}, e.g. {@code lease_lost}. */
public enum EventKind {
  /** A runner passed its gate and began claiming; detail: total workers, exit on idle, pid. */
  RUNNER_STARTED,
  /** A runner stopped; detail: its counters. */
  RUNNER_STOPPED,
  /** A newcomer asked the active runner of its gate to stop. */
  TAKEOVER_REQUESTED,
  /** A newcomer became the active runner of its gate after a takeover. */
  RUNNER_TOOK_OVER,
  /** A dead runner was cleared away and its leases rescued. */
  RUNNER_PRUNED,
  /** A runner that did not leave within its takeover grace was killed and its leases released. */
  RUNNER_KILLED,
  /** A runner took the leader lease. */
  BECAME_LEADER,
  /** A runner lost or gave up the leader lease. */
  LOST_LEADERSHIP,
  /** A worker thread started. */
  WORKER_SPAWNED,
  /** An idle worker thread ended. */
  WORKER_PRUNED,
  /** An expired lease was rescued: its run ended lost, its task charged a failed attempt. */
  TASK_RESCUED,
  /** A lease was given back without charging an attempt. */
  TASK_RELEASED,
  /** A runner found a lease of its own gone (rescued or claimed again). */
  LEASE_LOST,
  /**
   * An operator paused, resumed, cancelled, retried or deleted tasks, or paused or resumed a task
   * type; detail: verb, ids (or type), tree, changed.
   */
  OPERATOR_CONTROL,
  /** The configuration file was re-applied. */
  CONFIG_RELOADED,
  /** The configuration file was invalid or could not be applied; the previous one stays. */
  CONFIG_RELOAD_FAILED,
  /** The visit scheduler created visit tasks. */
  VISITS_SCHEDULED,
  /** A visit scheduler pass failed. */
  VISIT_SCHEDULING_FAILED,
  NO_ORIGINS_TO_VISIT,
  /**
   * A runner lost the database: a pass failed. Written once the database is back, with the time it
   * was lost and the error.
   */
  DATABASE_LOST,
  /** A runner reached the database again after it had lost it; detail: failed passes, seconds. */
  DATABASE_REGAINED;

  private final String dbName = name().toLowerCase(Locale.ROOT);

  public String dbName() {
    return dbName;
  }
}
