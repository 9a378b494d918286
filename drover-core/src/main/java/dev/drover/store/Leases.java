package dev.drover.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.internal.Json;
import dev.drover.model.Claim;
import dev.drover.model.Completion;
import dev.drover.model.Lease;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The claim protocol on the database. A claim is one conditional write per priority level that
 * moves {@code next_run} to the end of the lease, records the owner and counts the attempt; every
 * later write of the owner is fenced by (task, owner, attempt), so after a lease is rescued or
 * claimed again the old owner's heartbeat, completion or release changes nothing.
 *
 * <p>Each method is one short transaction; no transaction is held while work executes. On
 * PostgreSQL the fence check and the rescuer lock the rows they read ({@code FOR UPDATE}), so a
 * completion and a rescue of the same lease serialize and exactly one of them wins; on SQLite the
 * single writer gives the same.
 *
 * <p>A type with a per-key limit ({@link TaskType#maxPerKey()}) is claimed by {@code
 * taskClaimPerKey} instead: keys round-robin, never more than the limit leased per key. Its
 * count of leased tasks is only right if no other claim of the type commits unseen between the
 * count and the write, so on PostgreSQL its claimers take turns on an advisory lock held until
 * commit ({@code taskClaimPerKeyLock}); claims of other types are not held up.
 */
final class Leases {
  private final Jdbi jdbi;
  private final SqlFiles sql;
  private final Rows rows;
  private final RunEnder runEnder;

  Leases(Jdbi jdbi, SqlFiles sql, Rows rows, RunEnder runEnder) {
    this.jdbi = jdbi;
    this.sql = sql;
    this.rows = rows;
    this.runEnder = runEnder;
  }

  List<Claim> claim(String type, String owner, Instant now, Duration lease, int limit, PriorityShares shares) {
    if (limit <= 0) {
      return List.of();
    }
    Instant until = now.plus(lease);
    return jdbi.inTransaction(h -> {
      Integer maxPerKey = h.createQuery(sql.get("taskTypeGet")).bind("name", type).map(rows.taskType).findOne()
          .map(TaskType::maxPerKey).orElse(null);
      List<Rows.Leased> claimed = maxPerKey == null
          ? claimByPriority(h, type, owner, now, until, limit, shares)
          : claimPerKey(h, type, owner, now, until, limit, maxPerKey);
      List<Claim> out = new ArrayList<>(claimed.size());
      for (Rows.Leased c : claimed) {
        Task t = c.task();
        int attempt = c.attempt();
        ObjectNode meta = Json.object();
        meta.put("worker", owner);
        TaskRun run = h.createQuery(sql.get("taskRunOpen"))
            .bind("task", t.id())
            .bind("backend_id", t.id() + "." + attempt)
            .bind("now", now)
            .bind("metadata", Json.canonical(meta))
            .bind("owner", owner)
            .bind("attempt", attempt)
            .map(rows.taskRun).one();
        out.add(new Claim(t, run, new Lease(t.id(), attempt)));
      }
      return out;
    });
  }

  /** Prioritized tasks take the budget first, split by the shares; plain tasks get the rest. */
  private List<Rows.Leased> claimByPriority(Handle h, String type, String owner, Instant now, Instant until,
      int limit, PriorityShares shares) {
    List<Rows.Leased> claimed = new ArrayList<>(
        shares.take(limit, (p, n) -> claimLevel(h, type, owner, now, until, p, n)));
    if (claimed.size() < limit) {
      claimed.addAll(claimLevel(h, type, owner, now, until, null, limit - claimed.size()));
    }
    return claimed;
  }

  /** Round-robin between keys, at most {@code maxPerKey} leased per key; priorities are not used. */
  private List<Rows.Leased> claimPerKey(Handle h, String type, String owner, Instant now, Instant until,
      int limit, int maxPerKey) {
    // Must run before the claim reads the per-key counts; see the SQL files for why.
    h.createQuery(sql.get("taskClaimPerKeyLock")).bind("type", type).mapTo(String.class).one();
    List<Rows.Leased> tasks = new ArrayList<>(h.createQuery(sql.get("taskClaimPerKey"))
        .bind("type", type).bind("now", now).bind("lease_until", until).bind("owner", owner)
        .bind("max_per_key", maxPerKey).bind("limit", limit)
        .map(rows.leased).list());
    tasks.sort(Comparator.comparingLong((Rows.Leased l) -> l.task().id()));
    return tasks;
  }

  private List<Rows.Leased> claimLevel(Handle h, String type, String owner, Instant now, Instant until,
      TaskPriority priority, int limit) {
    List<Rows.Leased> tasks = new ArrayList<>(h.createQuery(sql.get("taskClaim"))
        .bind("type", type).bind("now", now).bind("lease_until", until).bind("owner", owner)
        .bind("priority", priority == null ? null : priority.dbName()).bind("limit", limit)
        .map(rows.leased).list());
    // RETURNING has no order; every claimed row now has the same next_run (the lease), so sort by id.
    tasks.sort(Comparator.comparingLong((Rows.Leased l) -> l.task().id()));
    return tasks;
  }

  List<Lease> heartbeat(String owner, List<Lease> leases, Instant leaseUntil) {
    if (leases.isEmpty()) {
      return List.of();
    }
    return jdbi.inTransaction(h -> {
      List<Lease> lost = new ArrayList<>();
      for (Lease l : leases) {
        int held = h.createUpdate(sql.get("taskHeartbeat"))
            .bind("id", l.taskId()).bind("owner", owner).bind("attempt", l.attempt())
            .bind("lease_until", leaseUntil).execute();
        if (held == 0) {
          lost.add(l);
        }
      }
      return lost;
    });
  }

  List<Lease> complete(String owner, List<Completion> completions, Instant at) {
    if (completions.isEmpty()) {
      return List.of();
    }
    return jdbi.inTransaction(h -> {
      List<Lease> rejected = new ArrayList<>();
      VisitOutcomes.Batch visits = runEnder.visitBatch();
      for (Completion c : completions) {
        Optional<TaskRun> run = heldRun(h, owner, c.lease());
        if (run.isEmpty()) {
          rejected.add(c.lease());
        } else {
          runEnder.end(h, run.get(), c.status(), c.metadata(), at, visits);
        }
      }
      visits.ingest(h);
      return rejected;
    });
  }

  /** The open run of {@code lease}, if {@code owner} still holds it (locking the task on PostgreSQL). */
  private Optional<TaskRun> heldRun(Handle h, String owner, Lease lease) {
    boolean held = h.createQuery(sql.get("taskLeaseCheck"))
        .bind("id", lease.taskId()).bind("owner", owner).bind("attempt", lease.attempt())
        .map(rows.task).findOne().isPresent();
    return held ? openRun(h, lease) : Optional.empty();
  }

  private Optional<TaskRun> openRun(Handle h, Lease lease) {
    return h.createQuery(sql.get("taskRunOfAttempt"))
        .bind("task", lease.taskId()).bind("attempt", lease.attempt())
        .map(rows.taskRun).findOne();
  }

  List<Long> rescueExpired(Instant now, int limit) {
    return jdbi.inTransaction(h -> rescue(h, h.createQuery(sql.get("taskLeaseExpired"))
        .bind("now", now).bind("limit", limit).map(rows.leased).list(), now));
  }

  /** Takes back the leases of a runner that is gone: rescued (charged) or released (not). */
  List<Long> rescueOwner(String owner, Instant now, boolean charge) {
    return jdbi.inTransaction(h -> {
      List<Rows.Leased> held = h.createQuery(sql.get("taskLeasedBy")).bind("owner", owner).map(rows.leased).list();
      if (charge) {
        return rescue(h, held, now);
      }
      List<Long> released = new ArrayList<>();
      for (Rows.Leased l : held) {
        if (release(h, owner, new Lease(l.task().id(), l.attempt()), now)) {
          released.add(l.task().id());
        }
      }
      return released;
    });
  }

  /** Ends the open runs of {@code leased} as {@code lost} and reschedules them as a failed attempt. */
  private List<Long> rescue(Handle h, List<Rows.Leased> leased, Instant now) {
    List<Long> rescued = new ArrayList<>();
    for (Rows.Leased e : leased) {
      Task t = e.task();
      ObjectNode meta = Json.object();
      meta.put("rescued", true);
      Optional<TaskRun> run = openRun(h, new Lease(t.id(), e.attempt()));
      if (run.isPresent()) {
        runEnder.end(h, run.get(), TaskRunStatus.LOST, meta, now);
      } else {
        runEnder.reschedule(h, t, TaskRunStatus.LOST, now);
      }
      rescued.add(t.id());
    }
    return rescued;
  }

  int release(String owner, List<Lease> leases, Instant now) {
    if (leases.isEmpty()) {
      return 0;
    }
    return jdbi.inTransaction(h -> (int) leases.stream().filter(l -> release(h, owner, l, now)).count());
  }

  /** Gives one lease back without charging it; false if {@code owner} no longer holds it. */
  private boolean release(Handle h, String owner, Lease l, Instant now) {
    Optional<TaskRun> run = heldRun(h, owner, l);
    if (h.createUpdate(sql.get("taskRelease")).bind("id", l.taskId()).bind("owner", owner)
        .bind("attempt", l.attempt()).bind("now", now).execute() != 1) {
      return false;
    }
    ObjectNode meta = Json.object();
    meta.put("released", true);
    // The run is closed without rescheduling through the rules: a release charges nothing.
    run.ifPresent(r -> runEnder.close(h, r, TaskRunStatus.LOST, meta, now));
    return true;
  }
}
