package dev.drover.store;

import static dev.drover.store.SqlQuery.TASK_CLAIM;
import static dev.drover.store.SqlQuery.TASK_CLAIM_CANDIDATES;
import static dev.drover.store.SqlQuery.TASK_CLAIM_PER_KEY;
import static dev.drover.store.SqlQuery.TASK_CLAIM_PER_KEY_LOCK;
import static dev.drover.store.SqlQuery.TASK_GET;
import static dev.drover.store.SqlQuery.TASK_HEARTBEAT;
import static dev.drover.store.SqlQuery.TASK_LEASED_BY;
import static dev.drover.store.SqlQuery.TASK_LEASE_EXPIRED;
import static dev.drover.store.SqlQuery.TASK_LEASE_HELD;
import static dev.drover.store.SqlQuery.TASK_MARK_DISABLED_BY_OPERATOR;
import static dev.drover.store.SqlQuery.TASK_RELEASE;
import static dev.drover.store.SqlQuery.TASK_RELEASE_UNBEGUN;
import static dev.drover.store.SqlQuery.TASK_RUN_OF_ATTEMPT;
import static dev.drover.store.SqlQuery.TASK_RUN_OPEN_OF_TASKS;
import static dev.drover.store.SqlQuery.TASK_SET_STATUS;
import static dev.drover.store.SqlQuery.TASK_TYPE_PAUSED;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.schedule.PriorityShares;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The claim protocol on the database. A claim reads the oldest due tasks of every priority level in
 * one statement, chooses by the priority shares, and claims the choice with one conditional write
 * that moves {@code next_run} to the end of the lease, records the owner and counts the attempt.
 * Claims are queued: no run is written until a later pass carries the run's start or its end
 * ({@link Store#taskPass} is the one claim and completion path). Every later write of the owner is
 * fenced by (task, owner, attempt), so after a lease is rescued or claimed again the old owner's
 * heartbeat, start, completion or release changes nothing; completions are fenced and written in
 * batches.
 *
 * <p>Each method is one short transaction; no transaction is held while work executes. On
 * PostgreSQL the fence check and the rescuer lock the rows they read ({@code FOR UPDATE}), so a
 * completion and a rescue of the same lease serialize and exactly one of them wins; on SQLite the
 * single writer gives the same.
 *
 * <p>A type with a per-key limit ({@link TaskType#maxPerKey()}) is claimed by {@code
 * taskClaimPerKey} instead: keys round-robin, never more than the limit leased per key. Its count
 * of leased tasks is only right if no other claim of the type commits unseen between the count and
 * the write, so on PostgreSQL its claimers take turns on an advisory lock held until commit ({@code
 * taskClaimPerKeyLock}); claims of other types are not held up.
 */
final class Leases {
  private static final int HELD_CHUNK = 1000;
  private final Jdbi jdbi;
  private final SqlFiles sql;
  private final DialectSql dialect;
  private final Rows rows;
  private final RunEnder runEnder;
  private final Columns columns;
  private final Children children;
  private final ChildEnds childEnds;
  private final ClaimFloors floors;

  Leases(
      Jdbi jdbi,
      DialectSql dialect,
      Rows rows,
      RunEnder runEnder,
      Children children,
      ChildEnds childEnds) {
    this.children = children;
    this.childEnds = childEnds;
    this.jdbi = jdbi;
    this.sql = dialect.files();
    this.dialect = dialect;
    this.columns = new Columns(dialect);
    this.rows = rows;
    this.runEnder = runEnder;
    this.floors = dialect.claimIndexKeepsClaimedEntries() ? new ClaimFloors() : null;
  }

  /** See {@link Store#taskPass}. */
  PassResult pass(Pass pass) {
    List<ClaimFloors.Claimed> found = new ArrayList<>();
    PassResult result =
        jdbi.inTransaction(
            h -> {
              found.clear();
              markStarted(h, pass.owner(), pass.started());
              List<Lease> notKept = new ArrayList<>();
              List<Lease> rejected =
                  complete(h, pass.owner(), pass.completions(), pass.now(), notKept);
              List<Claim> claimed = new ArrayList<>();
              for (ClaimRequest r : pass.claims()) {
                claimed.addAll(claim(h, r, pass.owner(), pass.now(), found));
              }
              return new PassResult(rejected, claimed, notKept);
            });
    if (floors != null) {
      found.forEach(floors::claimed); // now that the claims committed
    }
    return result;
  }

  private void markStarted(Handle h, String owner, List<RunStarted> started) {
    if (started.isEmpty()) {
      return;
    }
    dialect.insertStarted(h, owner, started);
  }

  /**
   * Claims for {@code owner}, queued: each run is opened in memory only, 'scheduled', and written
   * once begun or with its end (see {@link Claim}).
   */
  private List<Claim> claim(
      Handle h, ClaimRequest r, String owner, Instant now, List<ClaimFloors.Claimed> found) {
    TaskType type = r.type();
    int limit = r.limit();
    boolean perKey = type.maxPerKey() != null;
    // The candidates' query checks the pause itself; the per-key claim reads it first.
    if (limit <= 0 || (perKey && typePaused(h, type.name()))) {
      return List.of();
    }
    Instant until = now.plus(r.lease());
    List<Rows.Leased> claimed =
        perKey
            ? claimPerKey(h, type.name(), owner, now, until, limit, type.maxPerKey())
            : claimByPriority(h, type.name(), owner, now, until, limit, r.shares(), found);
    // The row trigger leaves a claim's changes to it (V025, V026).
    dialect.countMoves(h, new StatusMoves().claimed(type.name(), claimed.size()));
    ObjectNode meta = Claim.openedBy(owner); // one for the claim's runs
    return claimed.stream()
        .map(
            c ->
                new Claim(
                    c.task(), Claim.openedRun(c.task().id(), c.attempt(), now, meta), c.lease()))
        .toList();
  }

  /**
   * Prioritized tasks take the budget first, split by the shares; plain tasks get the rest. The
   * candidates of every level are read in one statement and the choice claimed in a second.
   */
  private List<Rows.Leased> claimByPriority(
      Handle h,
      String type,
      String owner,
      Instant now,
      Instant until,
      int limit,
      PriorityShares shares,
      List<ClaimFloors.Claimed> found) {
    Map<String, ClaimFloors.Key> from = floors == null ? Map.of() : floors.at(type, now);
    Map<String, List<Candidate>> byLevel = candidates(h, type, now, limit, from);
    if (!from.isEmpty() && byLevel.values().stream().mapToInt(List::size).sum() < limit) {
      from = Map.of(); // too few past the floors: what is left of the backlog may be below them
      byLevel = candidates(h, type, now, limit, from);
    }
    // Each level's part in id order, the levels in priority order: as the claims return them.
    Map<String, ClaimFloors.Key> last = new HashMap<>();
    Map<String, List<Candidate>> levels = byLevel;
    List<Long> chosen =
        new ArrayList<>(shares.take(limit, (p, n) -> first(levels.get(p.dbName()), n, last)));
    if (chosen.size() < limit) {
      chosen.addAll(first(byLevel.get(UNPRIORITIZED), limit - chosen.size(), last));
    }
    if (floors != null) {
      found.add(new ClaimFloors.Claimed(type, now, from.isEmpty(), chosen.size() == limit, last));
    }
    if (chosen.isEmpty()) {
      return List.of();
    }
    Map<Long, Rows.Leased> claimed = new HashMap<>();
    Query claim = h.createQuery(sql.get(TASK_CLAIM));
    dialect.bindIds(claim, "ids", chosen);
    claim
        .bind("lease_until", until)
        .bind("owner", owner)
        .map(rows.leased)
        .forEach(l -> claimed.put(l.task().id(), l));
    return chosen.stream().map(claimed::get).filter(Objects::nonNull).toList();
  }

  /** True if an operator paused {@code type}: its tasks are not claimed. */
  private boolean typePaused(Handle h, String type) {
    return h.createQuery(sql.get(TASK_TYPE_PAUSED))
        .bind("name", type)
        .mapTo(Boolean.class)
        .findOne()
        .orElse(false);
  }

  /** The level of tasks without a priority in taskClaimCandidates. */
  private static final String UNPRIORITIZED = "none";

  /** The levels of taskClaimCandidates, each with its floor's parameters on PostgreSQL. */
  private static final List<String> LEVELS = List.of("high", "normal", "low", UNPRIORITIZED);

  /** A due task that a claim may take. */
  private record Candidate(long id, Instant nextRun, String level) {
    static final Comparator<Candidate> DUE_ORDER =
        Comparator.comparing(Candidate::nextRun).thenComparingLong(Candidate::id);
  }

  /**
   * The due tasks of each level, in due order, up to {@code limit} per level; each level past its
   * floor in {@code from}, if it has one.
   */
  private Map<String, List<Candidate>> candidates(
      Handle h, String type, Instant now, int limit, Map<String, ClaimFloors.Key> from) {
    Map<String, List<Candidate>> byLevel = new HashMap<>();
    Query q =
        h.createQuery(sql.get(TASK_CLAIM_CANDIDATES))
            .bind("type", type)
            .bind("now", now)
            .bind("limit", limit);
    if (floors != null) {
      for (String level : LEVELS) {
        ClaimFloors.Key floor = from.get(level);
        q.bindByType(level + "_after_run", floor == null ? null : floor.nextRun(), Instant.class)
            .bindByType(level + "_after_id", floor == null ? null : floor.id(), Long.class);
      }
    }
    q.map(
            (rs, ctx) ->
                new Candidate(
                    rs.getLong("id"), columns.instant(rs, "next_run"), rs.getString("level")))
        .forEach(c -> byLevel.computeIfAbsent(c.level(), k -> new ArrayList<>()).add(c));
    byLevel.values().forEach(l -> l.sort(Candidate.DUE_ORDER));
    return byLevel;
  }

  /**
   * The ids of the first {@code n} candidates (of a level that may have none), in id order; puts
   * the due order's key of the last of them in {@code last}.
   */
  private static List<Long> first(
      List<Candidate> candidates, int n, Map<String, ClaimFloors.Key> last) {
    if (candidates == null || n <= 0 || candidates.isEmpty()) {
      return List.of();
    }
    List<Candidate> taken = candidates.subList(0, Math.min(n, candidates.size()));
    Candidate end = taken.get(taken.size() - 1);
    last.put(end.level(), new ClaimFloors.Key(end.nextRun(), end.id()));
    return taken.stream().map(Candidate::id).sorted().toList();
  }

  /**
   * Round-robin between keys, at most {@code maxPerKey} leased per key; priorities are not used.
   */
  private List<Rows.Leased> claimPerKey(
      Handle h, String type, String owner, Instant now, Instant until, int limit, int maxPerKey) {
    // Must run before the claim reads the per-key counts; see the SQL files for why.
    h.createQuery(sql.get(TASK_CLAIM_PER_KEY_LOCK)).bind("type", type).mapTo(String.class).one();
    List<Rows.Leased> tasks =
        new ArrayList<>(
            h.createQuery(sql.get(TASK_CLAIM_PER_KEY))
                .bind("type", type)
                .bind("now", now)
                .bind("lease_until", until)
                .bind("owner", owner)
                .bind("max_per_key", maxPerKey)
                .bind("limit", limit)
                .map(rows.leased)
                .list());
    tasks.sort(Comparator.comparingLong((Rows.Leased l) -> l.task().id()));
    return tasks;
  }

  List<Lease> heartbeat(String owner, List<Lease> leases, Instant leaseUntil) {
    if (leases.isEmpty()) {
      return List.of();
    }
    return jdbi.inTransaction(
        h -> {
          List<Lease> lost = new ArrayList<>();
          for (Lease l : leases) {
            int held =
                h.createUpdate(sql.get(TASK_HEARTBEAT))
                    .bind("id", l.taskId())
                    .bind("owner", owner)
                    .bind("attempt", l.attempt())
                    .bind("lease_until", leaseUntil)
                    .execute();
            if (held == 0) {
              lost.add(l);
            }
          }
          return lost;
        });
  }

  /**
   * Completions that carry their claim are written without reading their tasks while the rows are
   * exactly as claimed; the others, and those whose row changed, are read (locked, on PostgreSQL)
   * and ended if still held. The run-end hooks see all of them, last. Returns the leases lost; adds
   * to {@code notKept} those whose runs ended but are not kept in the history.
   */
  private List<Lease> complete(
      Handle h, String owner, List<Completion> unvetted, Instant at, List<Lease> notKept) {
    if (unvetted.isEmpty()) {
      return List.of();
    }
    List<Completion> completions = children.vet(h, unvetted, at);
    List<EndedRun> ended = new ArrayList<>();
    List<Completion> asClaimed = new ArrayList<>();
    List<Completion> toRead = new ArrayList<>();
    // In task id order, so that two transactions never wait on each other's rows in a cycle.
    completions.stream()
        .sorted(Comparator.comparingLong(c -> c.lease().taskId()))
        .forEach(c -> (c.claimed() != null ? asClaimed : toRead).add(c));
    toRead.addAll(runEnder.endAsClaimed(h, owner, asClaimed, at, ended));
    toRead.sort(Comparator.comparingLong(c -> c.lease().taskId()));
    Map<Lease, Rows.LeasedRun> held =
        toRead.isEmpty()
            ? Map.of()
            : held(h, owner, toRead.stream().map(Completion::lease).toList());
    List<Lease> rejected = new ArrayList<>();
    List<RunEnder.Ending> endings = new ArrayList<>();
    for (Completion c : toRead) {
      Rows.LeasedRun run = held.get(c.lease());
      if (run == null) {
        rejected.add(c.lease());
      } else {
        TaskRun written = run.run() != null ? run.run() : unwrittenRun(c, owner, at);
        endings.add(
            new RunEnder.Ending(
                written,
                run.leased().task(),
                c.lease().attempt(),
                c.status(),
                c.metadata(),
                c.started()));
      }
    }
    runEnder.endAll(h, owner, endings, at, ended);
    // The children of the runs just ended, before the hooks: a parent is waiting when they run.
    Set<Lease> lost = new HashSet<>(rejected);
    completions.stream()
        .filter(c -> Children.spawns(c) && !lost.contains(c.lease()))
        .sorted(Comparator.comparingLong(c -> c.lease().taskId()))
        .forEach(c -> children.write(h, c.lease().taskId(), c.spawns(), at));
    runEnder.runHooks(h, ended, at);
    Set<Long> unkeptTasks = new HashSet<>();
    ended.stream().filter(e -> !e.kept()).forEach(e -> unkeptTasks.add(e.task().id()));
    completions.stream()
        .map(Completion::lease)
        .filter(l -> unkeptTasks.contains(l.taskId()))
        .forEach(notKept::add);
    return rejected;
  }

  /** The run of a queued claim that was never written, as its claim opened it. */
  private static TaskRun unwrittenRun(Completion c, String owner, Instant at) {
    if (c.claimed() != null) {
      return c.claimed().run();
    }
    Lease l = c.lease();
    Instant scheduled = c.started() != null ? c.started() : at;
    return Claim.openedRun(l.taskId(), l.attempt(), scheduled, Claim.openedBy(owner));
  }

  /**
   * Of {@code leases}, those {@code owner} still holds and whose run is open, with the task and the
   * run (locking the tasks on PostgreSQL); one statement however many leases.
   */
  private Map<Lease, Rows.LeasedRun> held(Handle h, String owner, List<Lease> leases) {
    Map<Lease, Rows.LeasedRun> held = new HashMap<>();
    List<Long> ids = leases.stream().map(Lease::taskId).distinct().sorted().toList();
    // In chunks, to stay below the databases' limits on bound parameters.
    for (int from = 0; from < ids.size(); from += HELD_CHUNK) {
      h.createQuery(sql.get(TASK_LEASE_HELD))
          .bindList("ids", ids.subList(from, Math.min(from + HELD_CHUNK, ids.size())))
          .bind("owner", owner)
          .map(rows.leasedRun)
          .forEach(
              r -> held.put(r.leased().lease(), r)); // a lease of another attempt finds nothing
    }
    return held;
  }

  private Optional<TaskRun> openRun(Handle h, Lease lease) {
    return h.createQuery(sql.get(TASK_RUN_OF_ATTEMPT))
        .bind("task", lease.taskId())
        .bind("attempt", lease.attempt())
        .map(rows.taskRun)
        .findOne();
  }

  List<Long> rescueExpired(Instant now, int limit) {
    return jdbi.inTransaction(
        h ->
            rescue(
                h,
                h.createQuery(sql.get(TASK_LEASE_EXPIRED))
                    .bind("now", now)
                    .bind("limit", limit)
                    .map(rows.leased)
                    .list(),
                now));
  }

  /** Takes back the leases of a runner that is gone: rescued (charged) or released (not). */
  List<Long> rescueOwner(String owner, Instant now, boolean charge) {
    return jdbi.inTransaction(
        h -> {
          List<Rows.Leased> held =
              h.createQuery(sql.get(TASK_LEASED_BY)).bind("owner", owner).map(rows.leased).list();
          if (charge) {
            return rescue(h, held, now);
          }
          List<Long> released = new ArrayList<>();
          List<EndedRun> ended = new ArrayList<>();
          for (Rows.Leased l : held) {
            if (release(h, owner, new Lease(l.task().id(), l.attempt()), now, ended)) {
              released.add(l.task().id());
            }
          }
          runEnder.runHooks(h, ended, now);
          return released;
        });
  }

  /**
   * Ends the open runs of {@code leased} as {@code lost} and reschedules them as a failed attempt.
   */
  private List<Long> rescue(Handle h, List<Rows.Leased> leased, Instant now) {
    List<Long> rescued = new ArrayList<>();
    List<EndedRun> ended = new ArrayList<>();
    for (Rows.Leased e : leased) {
      Task t = e.task();
      ObjectNode meta = Json.object();
      meta.put("rescued", true);
      Optional<TaskRun> run = openRun(h, new Lease(t.id(), e.attempt()));
      if (run.isPresent()) {
        runEnder.end(h, run.get(), TaskRunStatus.LOST, meta, now, ended);
        rescued.add(t.id());
      } else if (dialect.giveBack(
          h,
          h.createQuery(sql.get(TASK_RELEASE_UNBEGUN))
              .bind("id", t.id())
              .bind("attempt", e.attempt())
              .bind("now", now))) {
        // A queued claim with no run written: no worker began it, so it is given back uncharged,
        // as a takeover gives it back. A worker may have begun it in the last moments of a runner
        // that died before its next pass wrote the start: that run is then not charged either. It
        // is acceptable because the gap is one pass long (the start is written in the pass after
        // the worker began it), the work it did is repeated at most once more per such crash,
        // and charging every unbegun claim instead disables one-shot tasks that never ran.
        rescued.add(t.id());
      }
    }
    runEnder.runHooks(h, ended, now);
    return rescued;
  }

  /**
   * Disables tasks and ends their open runs {@code lost} with {@code disabled: true}, charging
   * nothing (the task is disabled; its retries stay as they were), in one transaction. The task
   * rows are written first, so on PostgreSQL they are locked before their runs are read. A runner
   * executing one finds its lease gone at its next heartbeat and cancels the work; its late start
   * or result is fenced out. Returns how many tasks changed.
   */
  int disable(List<Long> ids, Instant now) {
    List<Long> sorted = ids.stream().distinct().sorted().toList();
    return jdbi.inTransaction(
        h -> {
          Instant keep = null;
          // Only a child that was not final yet is counted by its parent when disabled.
          Set<Long> wasFinal = new HashSet<>();
          h.createQuery(sql.get(TASK_GET))
              .bindList("ids", sorted)
              .map(rows.task)
              .forEach(
                  t -> {
                    if (t.status() == TaskStatus.COMPLETED || t.status() == TaskStatus.DISABLED) {
                      wasFinal.add(t.id());
                    }
                  });
          int changed =
              h.createUpdate(sql.get(TASK_SET_STATUS))
                  .bindList("ids", sorted)
                  .bind("status", TaskStatus.DISABLED.dbName())
                  .bind("next_run", keep)
                  .execute();
          h.createUpdate(sql.get(TASK_MARK_DISABLED_BY_OPERATOR)).bindList("ids", sorted).execute();
          List<TaskRun> open =
              h.createQuery(sql.get(TASK_RUN_OPEN_OF_TASKS))
                  .bindList("ids", sorted)
                  .map(rows.taskRun)
                  .list();
          // A disabled child is final: tasks with a run ended here reach their parents through
          // the run-end hooks, the others now.
          Set<Long> withRun = new HashSet<>();
          open.forEach(r -> withRun.add(r.taskId()));
          childEnds.settle(
              h,
              sorted.stream()
                  .filter(id -> !withRun.contains(id) && !wasFinal.contains(id))
                  .toList());
          if (open.isEmpty()) {
            return changed;
          }
          Map<Long, Task> tasks = new HashMap<>();
          h.createQuery(sql.get(TASK_GET))
              .bindList("ids", open.stream().map(TaskRun::taskId).distinct().toList())
              .map(rows.task)
              .forEach(t -> tasks.put(t.id(), t));
          List<EndedRun> ended = new ArrayList<>();
          ObjectNode meta = Json.object();
          meta.put("disabled", true);
          for (TaskRun r : open) {
            runEnder.close(h, tasks.get(r.taskId()), r, TaskRunStatus.LOST, meta, now, ended);
          }
          runEnder.runHooks(h, ended, now);
          return changed;
        });
  }

  int release(String owner, List<Lease> leases, Instant now) {
    if (leases.isEmpty()) {
      return 0;
    }
    return jdbi.inTransaction(
        h -> {
          List<EndedRun> ended = new ArrayList<>();
          int released =
              (int) leases.stream().filter(l -> release(h, owner, l, now, ended)).count();
          runEnder.runHooks(h, ended, now);
          return released;
        });
  }

  /** Gives one lease back without charging it; false if {@code owner} no longer holds it. */
  private boolean release(Handle h, String owner, Lease l, Instant now, List<EndedRun> ended) {
    Rows.LeasedRun held = held(h, owner, List.of(l)).get(l);
    Optional<TaskRun> run = Optional.ofNullable(held).map(Rows.LeasedRun::run);
    if (!dialect.giveBack(
        h,
        h.createQuery(sql.get(TASK_RELEASE))
            .bind("id", l.taskId())
            .bind("owner", owner)
            .bind("attempt", l.attempt())
            .bind("now", now))) {
      return false;
    }
    ObjectNode meta = Json.object();
    meta.put("released", true);
    // The run is closed without rescheduling through the rules: a release charges nothing.
    run.ifPresent(
        r -> runEnder.close(h, held.leased().task(), r, TaskRunStatus.LOST, meta, now, ended));
    return true;
  }
}
