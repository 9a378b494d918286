package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.EventKind;
import dev.drover.model.RunnerRecord;
import dev.drover.store.LeaderLease;
import dev.drover.store.RunnerTable;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The leader lease: of all runners on one database, the holder alone runs the singleton services
 * (the rescuer, pruning of dead runners). The holder renews at a third of the lease; the others try
 * ten times per lease, so one of them leads within about a lease of the leader's death — at once
 * when the dead leader ran on their host, since its process is seen gone.
 */
final class Leadership {
  /** The lease's name in the leader table. */
  static final String SERVICE = "runner";

  private static final Duration MIN_RETRY = Duration.ofMillis(50);

  private final RunnerTable table;
  private final String me;
  private final Duration lease;
  private final DeadRunners dead;
  private final EventLog events;
  private boolean leading;
  private Instant nextTry = Instant.MIN;

  Leadership(RunnerTable table, String me, Duration lease, DeadRunners dead, EventLog events) {
    this.table = table;
    this.me = me;
    this.lease = lease;
    this.dead = dead;
    this.events = events;
  }

  /** Renews or tries to take the lease when it is time; true while this runner leads. */
  boolean tick(Instant now) {
    if (now.isBefore(nextTry)) {
      return leading;
    }
    boolean held = table.leaderAcquire(SERVICE, me, now, now.plus(lease));
    if (!held && holderIsGone(now)) {
      held = table.leaderAcquire(SERVICE, me, now, now.plus(lease));
    }
    if (held != leading) {
      ObjectNode d = Json.object();
      d.put("lease_ms", lease.toMillis());
      events.add(held ? EventKind.BECAME_LEADER : EventKind.LOST_LEADERSHIP, null, d);
    }
    leading = held;
    Duration retry = leading ? lease.dividedBy(3) : lease.dividedBy(10);
    nextTry = now.plus(retry.compareTo(MIN_RETRY) < 0 ? MIN_RETRY : retry);
    return leading;
  }

  /** True if the current holder is dead or gone, after clearing after it. */
  private boolean holderIsGone(Instant now) {
    Optional<LeaderLease> current = table.leader(SERVICE);
    if (current.isEmpty()) {
      return true;
    }
    Optional<RunnerRecord> holder = table.get(current.get().holder());
    if (holder.isEmpty()) {
      // Runners give leadership up before they remove their row: this one vanished without doing
      // so.
      table.leaderRelease(SERVICE, current.get().holder());
      return true;
    }
    if (dead.isDead(holder.get(), now)) {
      dead.bury(holder.get(), now);
      return true;
    }
    return false;
  }

  /** When {@link #tick} next renews or tries for the lease; the runner's loop wakes up for it. */
  Instant nextTry() {
    return nextTry;
  }

  /** Gives the lease up, so another runner leads without waiting for it to run out. */
  void release() {
    if (leading) {
      table.leaderRelease(SERVICE, me);
      leading = false;
    }
  }
}
