package dev.drover.engine;

import dev.drover.TaskContext;

import dev.drover.Outcome;

import dev.drover.TaskHandler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.config.ConfigFile;
import dev.drover.config.ConfigReport;
import dev.drover.engine.command.Orphans;
import dev.drover.Json;
import dev.drover.store.Claim;
import dev.drover.store.ClaimRequest;
import dev.drover.store.Completion;
import dev.drover.store.Lease;
import dev.drover.store.Pass;
import dev.drover.store.PassResult;
import dev.drover.store.RunStarted;
import dev.drover.model.RunnerRecord;
import dev.drover.model.RunnerState;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.schedule.PriorityShares;
import dev.drover.store.Store;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due work and executes it: one loop thread talks to the store, worker threads execute.
 *
 * <p>Why it is safe: the loop claims tasks in batches (under the type's {@code max_workers}, its
 * worker group's cap and the runner's total, plus what it keeps claimed ahead, see {@link
 * ClaimAhead}), and only then queues them for workers — claim before you act. A worker holds one
 * slot of one type: it executes a claimed run, then takes the next queued run of the same type, so
 * the caps hold however many are queued. Workers never touch the database: they post their outcome
 * to a queue, and the loop writes outcomes in batches, fenced by the lease, so a run whose lease
 * was rescued meanwhile cannot overwrite the newer attempt; a batch of outcomes, the starts of runs
 * still executing and the claims for the next batch share one transaction, and claimed work is
 * queued once it commits. The loop heartbeats every lease it holds, queued or executing, at a third
 * of its length; a heartbeat that finds a lease lost cancels its run (interrupting its worker, or
 * skipping it in the queue). No transaction is open while work executes. The loop sleeps on the
 * outcome queue, so a finishing worker wakes it at once, and so does new work ({@link Store#onWork}).
 *
 * <p>Around the loop: the runner registers in the process table and passes its {@link Gate} before
 * it claims anything; it heartbeats its row, and stops when a newcomer asks it to (a takeover).
 * Only the holder of the {@link Leadership} rescues expired leases, clears dead runners away and
 * schedules origin visits ({@link VisitSchedulers}).
 * A configuration file, if given, is re-applied when it changes or on {@link #requestReload()}.
 */
public final class Runner {
  private static final Logger log = LoggerFactory.getLogger(Runner.class);
  private static final int RESCUE_BATCH = 1000;
  /** How often the runner's row is heartbeated and the configuration file looked at. */
  private static final Duration HOUSEKEEPING = Duration.ofSeconds(1);
  /** Passes that may fail in a row (about seven minutes with the backoff) before the runner gives up. */
  private static final int MAX_FAILED_TICKS = 20;
  /** How often the leader looks for dead runners. */
  private static final Duration PRUNE_INTERVAL = Duration.ofSeconds(2);
  /**
   * How often the leader looks for expired leases: a lease has run its whole length by then, so a
   * little more is nothing, while looking on every pass cost a transaction per pass under load.
   */
  private static final Duration RESCUE_INTERVAL = Duration.ofMillis(250);

  private final Store store;
  private final Clock clock;
  private final RunnerOptions options;
  private final Map<String, TaskHandler> handlers;
  private final CommandRunner commands;
  private final ProcessIdentity self = ProcessIdentity.current();
  private final EventLog events;
  private final WorkerPool workers;
  private final DeadRunners dead;
  private final Leadership leadership;
  private final ConfigReloader reloader;
  private final VisitSchedulers visitSchedulers;
  private final ClaimAhead ahead;
  /** What workers tell the loop: outcomes, the end of a worker's turn, and wake-ups. */
  private final LinkedBlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
  /** Every lease this runner holds, queued or executing; loop thread only. */
  private final Map<Lease, HeldRun> held = new HashMap<>();
  /** Claimed runs no worker has begun yet, per type; the loop adds, workers take. */
  private final Map<String, Queue<HeldRun>> queued = new ConcurrentHashMap<>();
  /** Workers at work per type, each holding one slot of it; loop thread only. */
  private final Map<String, Integer> slotsTaken = new HashMap<>();
  private final RunnerStats stats = new RunnerStats();
  /**
   * The task types and worker group caps, re-read with the housekeeping (every second, and after a
   * configuration reload) rather than on every pass; loop thread only.
   */
  private List<TaskType> types = List.of();
  private Map<String, Integer> groupCaps = Map.of();
  /** Types that had a free slot left after the last claim, so may be waiting for future work. */
  private List<String> unsaturated = List.of();
  private int totalWorkers;
  private Instant nextHousekeeping = Instant.MIN;
  private Instant nextPrune = Instant.MIN;
  private Instant nextRescue = Instant.MIN;
  private volatile boolean stopRequested;
  private volatile Instant stopDeadline;
  private volatile String stopReason = "stopped on request";
  private volatile boolean reloadRequested;
  /** Set when the loop is gone: workers take no further queued run. */
  private volatile boolean closed;

  /** A message from a worker (or a wake-up) to the loop. */
  private sealed interface Signal permits Finished, SlotFreed, WakeUp {}

  /** A worker's result; a null outcome means "write nothing" (its lease is gone, or it never began). */
  private record Finished(HeldRun run, Outcome outcome) implements Signal {}

  /** A worker found no queued run of its type and gave its slot back. */
  private record SlotFreed(String type) implements Signal {}

  private record WakeUp() implements Signal {}

  public Runner(Store store, Clock clock, RunnerOptions options, Map<String, TaskHandler> handlers, CommandRunner commands) {
    this.store = store;
    this.clock = clock;
    this.options = options;
    this.handlers = Map.copyOf(handlers);
    this.commands = commands;
    this.totalWorkers = options.totalWorkers();
    this.events = new EventLog(store, clock, options.owner());
    this.workers = new WorkerPool(totalWorkers, options.workerIdle(), events);
    this.dead = new DeadRunners(store, self, options.runnerTimeout(), events);
    this.leadership = new Leadership(store.runners(), options.owner(), options.leaderLease(), dead, events);
    this.reloader = options.configFile() == null ? null : new ConfigReloader(options.configFile());
    this.visitSchedulers = new VisitSchedulers(store, clock, new SplittableRandom(), events);
    this.ahead = new ClaimAhead(options.claimAhead());
  }

  /** Counters of what this runner did so far. */
  public RunnerStats stats() {
    return stats;
  }

  /**
   * Asks the runner to stop: it claims nothing more, lets running work finish within {@code grace},
   * then interrupts what is left and gives its leases back without charging an attempt.
   */
  public void stop(Duration grace) {
    stopDeadline = clock.instant().plus(grace);
    stopRequested = true;
    wake();
  }

  /**
   * Why the runner stopped or is stopping: "stopped on request", a takeover or pruning; null when
   * nothing asked it to stop (it ran until idle, or is running).
   */
  public String stopReason() {
    return stopRequested ? stopReason : null;
  }

  /** Asks the runner to re-apply its configuration file at its next tick (what SIGHUP does). */
  public void requestReload() {
    reloadRequested = true;
    wake();
  }

  /**
   * Runs until stopped, or, with {@code exitOnIdle}, until nothing is due, running or waiting for
   * a retry. Returns what it did.
   */
  public RunnerStats run() throws InterruptedException {
    Instant now = clock.instant();
    store.runners().register(new RunnerRecord(options.owner(), self.host(), self.pid(), self.started(),
        options.gate(), RunnerState.WAITING, now, now, null, null));
    try (AutoCloseable subscription = store.onWork(this::wake)) {
      Gate gate = new Gate(store.runners(), clock, options, self, dead, events);
      if (options.gate() != null && !gate.enter(() -> stopRequested)) {
        log.info("runner {} stopped before it became active", options.owner());
        return stats;
      }
      if (options.gate() == null) {
        store.runners().activate(options.owner(), clock.instant()); // no gate: always admitted
      }
      log.info("runner {} started (total workers {})", options.owner(), totalWorkers);
      ObjectNode startDetail = Json.object();
      startDetail.put("total_workers", totalWorkers);
      startDetail.put("exit_on_idle", options.exitOnIdle());
      startDetail.put("claim_ahead_ms", options.claimAhead().toMillis());
      startDetail.put("pid", self.pid());
      events.add("runner_started", null, startDetail);
      loop();
      log.info("runner {} stopped: {}", options.owner(), stats);
      events.add("runner_stopped", null, Json.MAPPER.valueToTree(stats.asMap()));
      return stats;
    } catch (InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new DroverException("cannot stop listening for new work", e);
    } finally {
      closed = true;
      workers.shutdownNow();
      leadership.release();
      store.runners().remove(options.owner());
      events.flush();
    }
  }

  private void loop() throws InterruptedException {
    int failures = 0;
    while (true) {
      Tick tick;
      try {
        tick = runOnce();
        failures = 0;
      } catch (RuntimeException e) {
        // Most often the database is briefly unreachable (a restart, a fail-over). Work in hand goes
        // on; its leases are safe until they expire, and fencing rejects results that come too late.
        if (++failures > MAX_FAILED_TICKS) {
          throw e;
        }
        Duration backoff = Duration.ofSeconds(Math.min(30, 1L << Math.min(failures - 1, 5)));
        log.error("runner {}: a pass failed ({} in a row), retrying in {}", options.owner(), failures, backoff, e);
        Thread.sleep(backoff.toMillis());
        continue;
      }
      if (held.isEmpty() && (stopRequested || (options.exitOnIdle() && tick.claimed() == 0 && idle()))) {
        break;
      }
      awaitWork();
    }
  }

  /** What one pass of the loop did. */
  record Tick(int completed, int claimed, int rescued, int leasesLost) {}

  /**
   * One pass: housekeeping; write the starts and outcomes and claim (one transaction), then queue
   * the claims and put workers on them; the leader's services; heartbeat leases, enforce timeouts.
   */
  Tick runOnce() {
    Instant now = clock.instant();
    housekeeping(now);
    List<Completion> completions = takeSignals();
    List<HeldRun> starting = startsToWrite();
    if (stopRequested) {
      releaseQueued(now); // not begun: other runners may have them at once
    }
    List<HeldRun> claims = new ArrayList<>();
    int completed = written(completions, completeAndClaim(starting, completions, now, claims));
    starting.forEach(r -> r.startWritten = true);
    claims.forEach(r -> queued.computeIfAbsent(r.type.name(), k -> new ConcurrentLinkedQueue<>()).add(r));
    stats.claimed.addAndGet(claims.size());
    putWorkersOnQueuedRuns(); // committed: work may start
    int rescued = 0;
    if (leadership.tick(now)) {
      rescued = rescueExpired(now);
      pruneDeadRunners(now);
      visitSchedulers.tick(now, types, held.isEmpty());
    } else {
      visitSchedulers.pause();
    }
    int lost = heartbeat(now);
    enforceTimeouts(now);
    if (stopRequested && now.isAfter(stopDeadline)) {
      releaseAll(now);
    }
    events.flush();
    return new Tick(completed, claims.size(), rescued, lost);
  }

  /** Heartbeats this runner's row (and obeys a takeover), and reloads the configuration if due. */
  private void housekeeping(Instant now) {
    if (now.isBefore(nextHousekeeping) && !reloadRequested) {
      return;
    }
    nextHousekeeping = now.plus(HOUSEKEEPING);
    refreshTypes(); // first, so a failing pass stops here before it acts on stale types
    Optional<RunnerRecord> me = store.runners().heartbeat(options.owner(), now);
    if (me.isEmpty() && !stopRequested) {
      // Another runner took us for dead and rescued our leases; work in hand may run twice.
      log.error("runner {} was pruned from the process table (was it paused?); stopping", options.owner());
      stopReason = "pruned from the process table";
      stop(Duration.ZERO);
    } else if (me.isPresent() && me.get().stopRequestedBy() != null && !stopRequested) {
      RunnerRecord r = me.get();
      Duration grace = Duration.between(now, r.stopDeadline());
      log.info("runner {} takes over this data dir; finishing running work within {}", r.stopRequestedBy(),
          grace.isNegative() ? Duration.ZERO : grace);
      stopReason = "taken over by runner " + r.stopRequestedBy();
      stop(grace.isNegative() ? Duration.ZERO : grace);
    }
    if (reload(now)) {
      refreshTypes();
    }
  }

  private void refreshTypes() {
    types = store.taskTypeList();
    Map<String, Integer> caps = new HashMap<>();
    for (WorkerGroup g : store.workerGroupList()) {
      caps.put(g.name(), g.maxWorkers());
    }
    groupCaps = caps;
  }

  /** Re-applies the configuration file if it changed or a reload was asked for; true if applied. */
  private boolean reload(Instant now) {
    boolean forced = reloadRequested;
    reloadRequested = false;
    if (reloader == null) {
      return false;
    }
    try {
      Optional<ConfigFile> config = reloader.changed(forced);
      if (config.isEmpty()) {
        return false;
      }
      ConfigReport report = config.get().applyTo(store);
      String total = config.get().limits().get("total_workers");
      if (total != null && !options.totalWorkersFixed()) {
        totalWorkers = Integer.parseInt(total);
        workers.resize(totalWorkers);
      }
      log.info("reloaded {}: {} created, {} updated, {} unchanged; total workers {}", reloader.file(),
          report.created(), report.updated(), report.unchanged(), totalWorkers);
      ObjectNode d = Json.object();
      d.put("file", reloader.file().toString());
      d.put("created", report.created());
      d.put("updated", report.updated());
      d.put("unchanged", report.unchanged());
      d.put("total_workers", totalWorkers);
      events.add("config_reloaded", null, d);
      return true;
    } catch (DroverException e) {
      log.warn("configuration not reloaded, the previous one stays: {}", e.getMessage());
      ObjectNode d = Json.object();
      d.put("file", reloader.file().toString());
      d.put("error", e.getMessage());
      events.add("config_reload_failed", null, d);
      return false;
    }
  }

  private int rescueExpired(Instant now) {
    if (now.isBefore(nextRescue)) {
      return 0;
    }
    nextRescue = now.plus(RESCUE_INTERVAL);
    List<Long> rescuedIds = store.taskRescueExpired(now, RESCUE_BATCH);
    rescuedIds.forEach(id -> events.add("task_rescued", id, null));
    stats.rescued.addAndGet(rescuedIds.size());
    if (rescuedIds.size() == RESCUE_BATCH) {
      nextRescue = now; // there may be more: go on at the next pass
    }
    return rescuedIds.size();
  }

  private void pruneDeadRunners(Instant now) {
    if (now.isBefore(nextPrune)) {
      return;
    }
    nextPrune = now.plus(PRUNE_INTERVAL);
    for (RunnerRecord r : store.runners().list()) {
      if (!r.name().equals(options.owner()) && dead.isDead(r, now)) {
        dead.bury(r, now);
      }
    }
  }

  private boolean idle() {
    return signals.isEmpty() && store.taskCountOutstanding(executableTypes(), clock.instant()) == 0;
  }

  /** Wakes the loop now, e.g. because work was just created in this process. */
  public void wake() {
    signals.add(new WakeUp());
  }

  /**
   * Sleeps until a worker finishes, {@link #wake()} is called, the next waiting task comes due, the
   * loop's next timed duty is due, or the poll interval passes, whichever is first; so future tasks
   * start when they come due, and a poll interval longer than the leader lease or a task's lease
   * does not let them run out.
   */
  private void awaitWork() throws InterruptedException {
    Instant now = clock.instant();
    long waitMs = options.pollInterval().toMillis();
    Instant duty = nextDuty();
    waitMs = duty.isAfter(now) ? Math.min(waitMs, Duration.between(now, duty).toMillis() + 1) : 0;
    if (!stopRequested) {
      // A type whose slots are all taken needs no due time: a finishing worker wakes us first.
      // (So the leader may rescue an expired lease of such a type up to a poll interval late.)
      Optional<Instant> next = store.taskNextDue(unsaturated);
      // A due time in the past means work is waiting for a free slot: a finishing worker wakes us.
      if (next.isPresent() && next.get().isAfter(now)) {
        waitMs = Math.max(0, Math.min(waitMs, Duration.between(now, next.get()).toMillis() + 1));
      }
    }
    Signal signal = signals.poll(waitMs, TimeUnit.MILLISECONDS);
    if (signal != null) {
      signals.add(signal);
    }
  }

  /** When the loop must run next on its own account: heartbeats of its row and its leases, the leader lease. */
  private Instant nextDuty() {
    Instant due = nextHousekeeping.isBefore(leadership.nextTry()) ? nextHousekeeping : leadership.nextTry();
    due = visitSchedulers.nextDue().isBefore(due) ? visitSchedulers.nextDue() : due;
    for (HeldRun r : held.values()) {
      // A cancelled run is not heartbeated any more (its worker is finishing); it cannot be a duty.
      if (r.cancelled() == HeldRun.Cancel.NONE && r.nextHeartbeat.isBefore(due)) {
        due = r.nextHeartbeat;
      }
    }
    return due;
  }

  // ---- outcomes

  /**
   * The results of the runs that finished since the last pass (those leases are no longer held),
   * and the slots workers gave back.
   */
  private List<Completion> takeSignals() {
    List<Signal> batch = new ArrayList<>();
    signals.drainTo(batch);
    List<Completion> completions = new ArrayList<>();
    for (Signal signal : batch) {
      if (signal instanceof SlotFreed freed) {
        slotsTaken.merge(freed.type(), -1, Integer::sum);
      } else if (signal instanceof Finished f) {
        HeldRun r = f.run();
        held.remove(r.claim.lease());
        if (f.outcome() != null) {
          ObjectNode meta = Json.object();
          meta.set("result", f.outcome().result());
          completions.add(new Completion(r.claim.lease(), f.outcome().status(), meta,
              r.startWritten ? null : r.started(), r.claim));
          stats.count(f.outcome().status());
          ahead.finished(r.type.name());
        }
      }
    }
    return completions;
  }

  /** The runs a worker began since the last pass that are still executing: their start is written now. */
  private List<HeldRun> startsToWrite() {
    return held.values().stream().filter(r -> !r.startWritten && r.started() != null).toList();
  }

  /** Reports the completions whose lease was lost before they were written; returns how many were written. */
  private int written(List<Completion> completions, List<Lease> rejected) {
    for (Lease l : rejected) {
      log.warn("task {} attempt {}: lease lost before its result was written; result discarded",
          l.taskId(), l.attempt());
      event("lease_lost", l.taskId(), attemptDetail(l));
    }
    stats.leasesLost.addAndGet(rejected.size());
    return completions.size() - rejected.size();
  }

  // ---- leases

  private int heartbeat(Instant now) {
    Map<Duration, List<HeldRun>> due = new HashMap<>();
    for (HeldRun r : held.values()) {
      if (!r.nextHeartbeat.isAfter(now) && r.cancelled() == HeldRun.Cancel.NONE) {
        due.computeIfAbsent(r.type.lease(), k -> new ArrayList<>()).add(r);
      }
    }
    int lost = 0;
    for (Map.Entry<Duration, List<HeldRun>> e : due.entrySet()) {
      List<Lease> leases = e.getValue().stream().map(r -> r.claim.lease()).toList();
      List<Lease> gone = store.taskHeartbeat(options.owner(), leases, now.plus(e.getKey()));
      for (HeldRun r : e.getValue()) {
        r.nextHeartbeat = now.plus(e.getKey().dividedBy(3));
        if (gone.contains(r.claim.lease())) {
          log.warn("task {} attempt {}: lease lost; cancelling", r.claim.task().id(), r.claim.lease().attempt());
          event("lease_lost", r.claim.task().id(), attemptDetail(r.claim.lease()));
          r.cancel(HeldRun.Cancel.LEASE_LOST);
          lost++;
        }
      }
    }
    stats.leasesLost.addAndGet(lost);
    return lost;
  }

  private void enforceTimeouts(Instant now) {
    for (HeldRun r : held.values()) {
      Instant started = r.started();
      // Command tasks time out inside the command runner, which kills the process tree.
      if (started != null && r.type.command() == null && r.type.timeout() != null
          && r.cancelled() == HeldRun.Cancel.NONE && now.isAfter(started.plus(r.type.timeout()))) {
        r.cancel(HeldRun.Cancel.TIMEOUT);
      }
    }
  }

  /** Gives back, without charging an attempt, every claimed run no worker has begun. */
  private void releaseQueued(Instant now) {
    List<HeldRun> unstarted = new ArrayList<>();
    for (Queue<HeldRun> q : queued.values()) {
      for (HeldRun r = q.poll(); r != null; r = q.poll()) {
        unstarted.add(r);
      }
    }
    if (!unstarted.isEmpty()) {
      release(unstarted, now);
      log.info("gave back {} claimed tasks that had not started", unstarted.size());
    }
  }

  private void releaseAll(Instant now) {
    List<HeldRun> left = new ArrayList<>(held.values());
    left.forEach(r -> r.cancel(HeldRun.Cancel.SHUTDOWN));
    queued.values().forEach(Queue::clear);
    int released = release(left, now);
    log.info("released {} unfinished tasks without charging an attempt", released);
  }

  private int release(List<HeldRun> runs, Instant now) {
    int released = store.taskRelease(options.owner(), runs.stream().map(r -> r.claim.lease()).toList(), now);
    runs.forEach(r -> held.remove(r.claim.lease()));
    runs.forEach(r -> event("task_released", r.claim.task().id(), attemptDetail(r.claim.lease())));
    stats.released.addAndGet(released);
    return released;
  }

  private void event(String kind, Long taskId, ObjectNode detail) {
    events.add(kind, taskId, detail);
  }

  private static ObjectNode attemptDetail(Lease lease) {
    ObjectNode d = Json.object();
    d.put("attempt", lease.attempt());
    return d;
  }

  // ---- claims

  /**
   * Writes the starts of {@code starting} and {@code completions}, and claims work for the free
   * slots and what is kept claimed ahead, in one transaction, adding what it claimed to {@code
   * claims} and to the held leases; the caller queues them once this returns, i.e. once the claims
   * are committed. Returns the rejected leases.
   */
  private List<Lease> completeAndClaim(List<HeldRun> starting, List<Completion> completions, Instant now,
      List<HeldRun> claims) {
    boolean claiming = !stopRequested;
    if (starting.isEmpty() && completions.isEmpty() && (!claiming || noRoomToClaim(now))) {
      unsaturated = List.of();
      return List.of(); // nothing to write and nothing to claim: no transaction
    }
    List<RunStarted> started = starting.stream().map(r -> new RunStarted(r.claim, r.started())).toList();
    try {
      List<ClaimRequest> requests = claiming ? claimRequests(now) : List.of();
      PassResult result =
          store.taskPass(new Pass(options.owner(), now, started, completions, requests));
      if (claiming) {
        claimed(now, requests, result.claimed(), claims);
      }
      return result.rejected();
    } catch (RuntimeException e) {
      claims.forEach(r -> held.remove(r.claim.lease())); // rolled back
      claims.clear();
      throw e;
    }
  }

  /** True if no type may claim anything now: every slot taken and nothing to keep ahead. */
  private boolean noRoomToClaim(Instant now) {
    return types.stream().filter(this::executable).allMatch(t -> toClaim(t, now) <= 0);
  }

  /** What to claim for each type with room, in the order of the types. */
  private List<ClaimRequest> claimRequests(Instant now) {
    List<ClaimRequest> requests = new ArrayList<>();
    for (TaskType type : types) {
      int wanted = executable(type) ? toClaim(type, now) : 0;
      if (wanted > 0) {
        requests.add(new ClaimRequest(type, type.lease(), wanted, PriorityShares.DEFAULT));
      }
    }
    return requests;
  }

  /** Holds what a committed pass claimed for {@code requests}, adding it to {@code claims}. */
  private void claimed(Instant now, List<ClaimRequest> requests, List<Claim> claimed,
      List<HeldRun> claims) {
    Map<String, TaskType> byName = new HashMap<>();
    requests.forEach(r -> byName.put(r.type().name(), r.type()));
    Map<String, Integer> got = new HashMap<>();
    for (Claim c : claimed) {
      HeldRun r = new HeldRun(c, byName.get(c.task().type()), now);
      held.put(c.lease(), r);
      claims.add(r);
      got.merge(c.task().type(), 1, Integer::sum);
    }
    unsaturated = requests.stream().filter(r -> got.getOrDefault(r.type().name(), 0) < r.limit())
        .map(r -> r.type().name()).toList();
  }

  /**
   * How many of {@code type} to claim now: its free slots and what it keeps claimed ahead, less
   * what is queued already. A type with a per-key limit claims for free slots only, so that the
   * limit, which counts leases, stays a limit on what executes.
   */
  private int toClaim(TaskType type, Instant now) {
    int keepAhead = type.maxPerKey() == null ? ahead.target(type.name(), now) : 0;
    return freeSlots(type) + keepAhead - queuedOf(type.name());
  }

  /** Slots of {@code type} no worker holds, under its own cap, its group's and the runner's. */
  private int freeSlots(TaskType type) {
    int free = Math.min(type.maxWorkers() - slotsTaken.getOrDefault(type.name(), 0), totalWorkers - slotsTaken());
    if (type.workerGroup() != null && groupCaps.containsKey(type.workerGroup())) {
      free = Math.min(free, groupCaps.get(type.workerGroup()) - slotsTakenInGroup(type.workerGroup()));
    }
    return Math.max(0, free);
  }

  private int queuedOf(String type) {
    Queue<HeldRun> q = queued.get(type);
    return q == null ? 0 : q.size();
  }

  private int slotsTaken() {
    return slotsTaken.values().stream().mapToInt(Integer::intValue).sum();
  }

  private int slotsTakenInGroup(String group) {
    return types.stream().filter(t -> group.equals(t.workerGroup()))
        .mapToInt(t -> slotsTaken.getOrDefault(t.name(), 0)).sum();
  }

  /** Puts a worker on each queued run that has a free slot of its type. */
  private void putWorkersOnQueuedRuns() {
    for (Map.Entry<String, Queue<HeldRun>> e : queued.entrySet()) {
      HeldRun first = e.getValue().peek();
      if (first == null) {
        continue;
      }
      TaskType type = types.stream().filter(t -> t.name().equals(e.getKey())).findFirst().orElse(first.type);
      for (int n = Math.min(freeSlots(type), e.getValue().size()); n > 0; n--) {
        slotsTaken.merge(type.name(), 1, Integer::sum);
        Queue<HeldRun> queue = e.getValue();
        workers.submit(() -> work(type.name(), queue));
      }
    }
  }

  private boolean executable(TaskType type) {
    if (!options.types().isEmpty() && !options.types().contains(type.name())) {
      return false;
    }
    return type.command() != null || handlers.containsKey(type.name());
  }

  private List<String> executableTypes() {
    return types.stream().filter(this::executable).map(TaskType::name).toList();
  }

  // ---- execution (worker threads)

  /** A worker's turn on one slot of {@code type}: queued runs of the type, one after another. */
  private void work(String type, Queue<HeldRun> queue) {
    try {
      HeldRun r;
      while (!closed && (r = queue.poll()) != null) {
        execute(r);
      }
    } finally {
      signals.add(new SlotFreed(type));
    }
  }

  private void execute(HeldRun r) {
    if (!r.begin(Thread.currentThread(), clock.instant())) {
      signals.add(new Finished(r, null)); // cancelled while queued: its lease is the loop's business
      return;
    }
    Outcome outcome;
    try {
      outcome = attempt(r);
    } catch (InterruptedException e) {
      outcome = switch (r.cancelled()) {
        case TIMEOUT -> Outcome.failed("timed out after " + r.type.timeout());
        default -> null; // lease lost or shutdown: the loop handles the lease
      };
    } catch (Exception e) {
      outcome = Outcome.failed(String.valueOf(e));
    } finally {
      r.end();
      Thread.interrupted(); // an interrupt meant for this run must not reach the next one
    }
    signals.add(new Finished(r, outcome));
  }

  private Outcome attempt(HeldRun r) throws Exception {
    Path runDir = options.runsDir().resolve(r.type.name()).resolve(r.claim.run().backendId());
    if (r.type.command() != null) {
      Map<String, String> env = Map.of(
          "DROVER_TASK_ID", Long.toString(r.claim.task().id()),
          "DROVER_RUN_ID", r.claim.run().backendId(),
          Orphans.RUNNER_ENV, options.owner());
      return commands.run(r.type, r.claim.task().arguments(), runDir, env);
    }
    Outcome o = handlers.get(r.type.name()).handle(new TaskContext(r.claim.task(), r.claim.run().backendId(),
        r.claim.lease().attempt(), r.type, runDir));
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    return o == null ? Outcome.failed("handler returned no outcome") : o;
  }
}
