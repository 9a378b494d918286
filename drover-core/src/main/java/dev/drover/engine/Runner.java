package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.TaskHandler;
import dev.drover.model.EventKind;
import dev.drover.model.RunnerRecord;
import dev.drover.model.RunnerState;
import dev.drover.store.Store;
import dev.drover.store.TaskWaiting;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due work and executes it: one loop thread talks to the store, worker threads execute.
 * Build one with {@link RunnerBuilder} (or {@code Drover.runner()}).
 *
 * <p>One task, from claim to end. A pass of the loop ({@link #runOnce}) first heartbeats the leases
 * it holds ({@link LeaseKeeper}) and does the housekeeping ({@link Housekeeping}: the runner's row,
 * takeovers, configuration reloads, the task types). Then {@link PassWriter} builds one immutable
 * {@link dev.drover.store.Pass}: the starts and outcomes its workers reported since the last pass,
 * and claims for the free worker slots of each type ({@link Slots}), and the store commits it in
 * one transaction. Only then does the {@link RunBook} move: the written outcomes leave it, the
 * claimed runs enter it, queued per type — claim before you act. The loop puts a worker on each
 * queued run that has a free slot; the worker ({@link Execution}) begins the run, executes its
 * handler or command, and signals its outcome ({@link Signals}), which wakes the loop; the next
 * pass writes it, fenced by the lease, so a run whose lease was rescued meanwhile cannot overwrite
 * the newer attempt. A task created alone in this process while a worker slot of its type is free
 * is claimed by its create instead ({@link CreateClaims}): the loop adopts the claim into the book
 * once the create has committed, and puts a worker on it without a pass. The leader among runners
 * also rescues expired leases, clears dead runners away and schedules origin visits ({@link
 * LeaderDuties}). No transaction is open while work executes.
 *
 * <p>When a pass fails (the database is away, a deadlock), nothing in memory has moved: the next
 * pass carries the same outcomes, and the failed pass's claims were never seen. The runner backs
 * off ({@link Outage}) and keeps heartbeating what it can meanwhile; workers keep executing what
 * they hold, and begin a queued run only while its lease is known to hold ({@link HeldRun}).
 *
 * <p>Around the loop: the runner registers in the process table and passes its {@link Gate} before
 * it claims anything, and stops when asked ({@link #stop}), taken over or pruned: it claims nothing
 * more, gives back what no worker began, lets running work finish within the grace, then gives back
 * the rest without charging an attempt. A stop is honoured even while the database does not answer:
 * shortly after the grace a watchdog interrupts the loop's store call, and the runner leaves what
 * it still holds to its leases ({@link StopWatchdog}).
 *
 * <p>A task disabled while it runs loses its lease: the store ends its run ({@code lost}, {@code
 * disabled: true}) and the heartbeat here cancels the work, as for any lease found gone.
 */
public final class Runner {
  private static final Logger log = LoggerFactory.getLogger(Runner.class);

  /** A runner that exits when idle waits this long for a visit pass to say what it enqueued. */
  private static final Duration VISIT_PASS_WAIT = Duration.ofSeconds(30);

  private final Store store;
  private final Clock clock;
  private final RunnerOptions options;
  private final ProcessIdentity self = ProcessIdentity.current();
  private final RunnerStats stats = new RunnerStats();
  private final Signals signals = new Signals();
  private final RunBook book = new RunBook();
  private final EventLog events;
  private final WorkerPool workers;
  private final DeadRunners dead;
  private final TaskTypes types;
  private final ClaimAhead ahead;
  private final Slots slots;
  private final PassWriter passes;
  private final UnkeptRunDirs unkeptRunDirs;
  private final LeaseKeeper leases;
  private final Housekeeping housekeeping;
  private final LeaderDuties leader;
  private final Execution execution;
  private final Outage outage;
  private final CreateClaims createClaims;

  /** Released by {@link #stop}, so a backoff ends at once. */
  private final Semaphore stopSignal = new Semaphore(0);

  /** Types that had a free slot left after the last claim, so may be waiting for future work. */
  private List<String> unsaturated = List.of();

  private volatile boolean stopRequested;
  private final StopWatchdog watchdog = new StopWatchdog();
  private volatile TaskWaiting waiting = TaskWaiting.NONE;
  private volatile Instant stopDeadline;
  private volatile String stopReason = "stopped on request";
  private volatile boolean reloadRequested;

  /** When the loop's current wait for work ends at the latest; loop thread. */
  private Instant nextStepBy = Instant.EPOCH;

  Runner(
      Store store,
      Clock clock,
      RunnerOptions options,
      Map<String, TaskHandler> handlers,
      CommandRunner commands) {
    this.store = store;
    this.clock = clock;
    this.options = options;
    this.events = new EventLog(store, clock, options.owner());
    this.workers = new WorkerPool(options.totalWorkers(), options.workerIdle(), events);
    this.dead = new DeadRunners(store, self, options.runnerTimeout(), events);
    this.execution = new Execution(handlers, commands, clock, options, signals, workers);
    this.types = new TaskTypes(store, options.types(), handlers.keySet());
    this.ahead = new ClaimAhead(options.claimAhead());
    this.slots = new Slots(book, types, ahead, options.totalWorkers());
    this.unkeptRunDirs = new UnkeptRunDirs(options.runsDir(), options.owner());
    this.passes =
        new PassWriter(
            store,
            options.owner(),
            book,
            slots,
            stats,
            events,
            unkeptRunDirs,
            clock,
            () -> !stopRequested,
            this::dispatch);
    this.leases = new LeaseKeeper(store, options.owner(), book, stats, events);
    this.housekeeping = new Housekeeping(store, options, types, this::resize, events);
    Leadership leadership =
        new Leadership(store.runners(), options.owner(), options.leaderLease(), dead, events);
    this.leader =
        new LeaderDuties(
            leadership,
            new Rescuer(store, stats, events),
            new RunnerPruner(store, options.owner(), dead),
            new CountFolder(store),
            new VisitSchedulingThread(
                new VisitSchedulers(store, clock, new SplittableRandom(), events, stats),
                clock,
                this::wake));
    this.createClaims = new CreateClaims(options.owner(), this::handOver);
    this.outage =
        new Outage(
            clock,
            options.owner(),
            store.where(),
            options.outageBackoff(),
            options.outageBackoffMax(),
            !options.exitOnIdle(),
            events);
  }

  /** Counters of what this runner did so far, as committed to the database. */
  public RunnerStats stats() {
    return stats;
  }

  /**
   * Asks the runner to stop: it claims nothing more, lets running work finish within {@code grace},
   * then interrupts what is left and gives its leases back without charging an attempt.
   */
  public void stop(Duration grace) {
    stopDeadline = clock.instant().plus(grace);
    createClaims.close();
    stopRequested = true;
    stopSignal.release();
    wake();
    watchdog.arm(grace);
  }

  /**
   * Why the runner stopped or is stopping: "stopped on request", a takeover or pruning; null when
   * nothing asked it to stop (it ran until idle, or is running).
   */
  public String stopReason() {
    return stopRequested ? stopReason : null;
  }

  /** Asks the runner to re-apply its configuration file at its next pass (what SIGHUP does). */
  public void requestReload() {
    reloadRequested = true;
    wake();
  }

  /** Wakes the loop now, e.g. because work was just created in this process. */
  public void wake() {
    signals.wake();
    passes.nudge();
  }

  /** A create claimed a task for this runner: the loop adopts it and puts a worker on it. */
  private void handOver() {
    signals.handOver();
    passes.nudge();
  }

  /**
   * Runs until stopped, or, with {@code exitOnIdle}, until nothing is due, running or waiting for a
   * retry. Returns what it did.
   */
  public RunnerStats run() throws InterruptedException {
    watchdog.attach(Thread.currentThread());
    if (stopRequested) {
      watchdog.arm(Duration.between(clock.instant(), stopDeadline));
    }
    try {
      return runRegistered();
    } catch (InterruptedException | RuntimeException e) {
      if (!watchdog.overran()) {
        throw e;
      }
      // Stopped by the watchdog before the loop began (registering, at the gate): nothing held.
      log.warn(
          "runner {} stops after its grace without the database: {}",
          options.owner(),
          e.toString());
      return stats;
    } finally {
      watchdog.finish();
    }
  }

  private RunnerStats runRegistered() throws InterruptedException {
    Instant now = clock.instant();
    store
        .runners()
        .register(
            new RunnerRecord(
                options.owner(),
                self.host(),
                self.pid(),
                self.started(),
                options.gate(),
                RunnerState.WAITING,
                now,
                now,
                null,
                null));
    try (AutoCloseable subscription = store.onWork(this::wake);
        AutoCloseable handOvers = store.claimOnCreate(createClaims)) {
      if (!admitted()) {
        log.info("runner {} stopped before it became active", options.owner());
        return stats;
      }
      log.info("runner {} started (total workers {})", options.owner(), slots.totalWorkers());
      events.add(EventKind.RUNNER_STARTED, startDetail());
      loop();
      log.info("runner {} stopped: {}", options.owner(), stats);
      events.add(EventKind.RUNNER_STOPPED, Json.MAPPER.valueToTree(stats.asMap()));
      return stats;
    } catch (InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new DroverException("cannot stop listening for new work", e);
    } finally {
      execution.close();
      passes.close();
      unkeptRunDirs.close();
      leaveTheDatabase();
    }
  }

  /** Gives the leadership up, removes the runner's row and writes the last events, if it can. */
  private void leaveTheDatabase() {
    try {
      leader.release();
      store.runners().remove(options.owner());
      events.flush();
    } catch (RuntimeException e) {
      log.warn(
          "runner {} could not leave its row and events in the database: {}",
          options.owner(),
          e.toString());
    }
  }

  /** Passes the gate (or, without one, activates): false if stopped before that. */
  private boolean admitted() throws InterruptedException {
    if (options.gate() == null) {
      store.runners().activate(options.owner(), clock.instant());
      return true;
    }
    return new Gate(store.runners(), clock, options, self, dead, events).enter(() -> stopRequested);
  }

  private ObjectNode startDetail() {
    ObjectNode d = Json.object();
    d.put("total_workers", slots.totalWorkers());
    d.put("exit_on_idle", options.exitOnIdle());
    d.put("claim_ahead_ms", options.claimAhead().toMillis());
    d.put("pid", self.pid());
    return d;
  }

  private void loop() throws InterruptedException {
    while (true) {
      try {
        if (!step()) {
          return;
        }
      } catch (InterruptedException e) {
        if (!watchdog.overran()) {
          throw e;
        }
        leaveToTheLeases();
        return;
      }
    }
  }

  /** Asked to stop, its deadline passed, and the stop watchdog had to interrupt the loop. */
  private void leaveToTheLeases() {
    log.warn(
        "runner {} stops {} after its grace without the database; {} leases left to expire",
        options.owner(),
        StopWatchdog.OVERRUN,
        book.held().size());
  }

  /** One pass and the wait after it; false when the loop is done. */
  private boolean step() throws InterruptedException {
    try {
      if (signals.takeOnlyHandOvers()) {
        // Only claims that creates committed: no pass is needed to put workers on them.
        dispatch();
        nextStepBy = leases.nextHeartbeat(nextStepBy); // what it adopted is heartbeated in time
        signals.await(Math.max(0, Duration.between(clock.instant(), nextStepBy).toMillis()));
        return true;
      }
      PassReport report = runOnce();
      outage.succeeded(clock.instant());
      if (book.isEmpty()
          && createClaims.settled()
          && (stopRequested || (options.exitOnIdle() && report.claimed() == 0 && idle()))) {
        return false;
      }
      noteWaiting(report);
      awaitWork();
    } catch (RuntimeException e) {
      if (watchdog.overran()) {
        leaveToTheLeases(); // the watchdog interrupted a store call: leave now
        return false;
      }
      Duration backoff = outage.failed(e, clock.instant());
      if (stopRequested && clock.instant().isAfter(stopDeadline.plus(backoff))) {
        // Asked to stop and the database stays away: leave; the leases held run out and the
        // tasks are rescued by whichever runner leads next.
        log.warn(
            "runner {} stops without the database; {} leases left to expire",
            options.owner(),
            book.held().size());
        return false;
      }
      outage.waitOut(backoff, leases, () -> stopRequested, stopSignal);
    }
    return true;
  }

  /** What one pass did. */
  record PassReport(int completed, int claimed, int rescued, int leasesLost) {}

  /**
   * One pass: heartbeat leases and housekeeping; write the outcomes and starts and claim (one
   * transaction, or two at once where the database allows: {@link PassWriter}), give back what is
   * to be given back, put workers on the queued runs; the leader's duties; time out handler runs;
   * write the events. Any store failure throws, and whatever had not committed is retried by the
   * next pass.
   */
  PassReport runOnce() {
    Instant now = clock.instant();
    // The claim-ahead rate counts what workers finished, written or not: it measures throughput.
    book.take(signals.drain()).forEach(r -> ahead.finished(r.type.name(), r.ran()));
    if (stopRequested) {
      adoptCreated(); // before the stop gives back what no worker began
    } else {
      dispatch(); // what creates handed over starts now, not after this pass's round trips
    }
    int lost = leases.heartbeat(now);
    startHandedOver();
    boolean reload = reloadRequested;
    housekeeping
        .runOnce(now, reload, this::startHandedOver)
        .ifPresent(r -> requestStop(r.reason(), r.grace()));
    if (reload) {
      reloadRequested = false;
    }
    if (stopRequested) {
      leases.releaseQueued(); // not begun: other runners may have them at once
    }
    PassWriter.Written written = passes.write(now, !stopRequested);
    unsaturated = written.unsaturated();
    if (stopRequested && now.isAfter(stopDeadline)) {
      leases.releaseAll();
    }
    leases.release(now);
    dispatch(); // the pass's claims are committed: work may start
    LeaderDuties.Done duties =
        leader.runOnce(now, types.all(), book.isEmpty(), this::startHandedOver);
    leases.enforceTimeouts(now);
    events.flush();
    return new PassReport(written.completed(), written.claimed(), duties.rescued(), lost);
  }

  /**
   * Puts workers on the queued runs, with the claims creates handed over adopted first, then sets
   * the room creates may claim in: the slots still free, since a type with a slot free after the
   * dispatch has a worker on its way to each of its queued runs. (Subtracting those runs as well
   * counted each of them twice, until the next dispatch: a runner running one task on one of two
   * slots offered none.) Loop thread.
   */
  private void dispatch() {
    adoptCreated();
    execution.dispatch(book, slots, types);
    createClaims.setRoom(types.executable(), slots::free);
  }

  /**
   * Puts workers on the claims creates handed over, if any came, and none once the runner is asked
   * to stop (the pass gives those back). Called between the loop's round trips to the database, so
   * that a task claimed as it was created does not wait behind the pass's housekeeping, the
   * leader's duties or the next due time's query. Loop thread.
   */
  private void startHandedOver() {
    if (!stopRequested && createClaims.handedOver()) {
      dispatch();
    }
  }

  /** The claims of creates that committed enter the book, queued for workers. */
  private void adoptCreated() {
    List<HeldRun> runs = createClaims.adopt();
    if (!runs.isEmpty()) {
      book.claimed(runs);
      stats.claimed.addAndGet(runs.size());
    }
  }

  private void requestStop(String reason, Duration grace) {
    if (!stopRequested) {
      stopReason = reason;
      stop(grace);
    }
  }

  private void resize(int totalWorkers) {
    slots.resize(totalWorkers);
    workers.resize(totalWorkers);
  }

  /**
   * A runner that exits when idle and holds nothing says what it still waits for (retries, one-shot
   * tasks due later), once each time that changes; {@link #waiting()} shows it meanwhile.
   */
  private void noteWaiting(PassReport report) {
    TaskWaiting w = TaskWaiting.NONE;
    if (options.exitOnIdle() && !stopRequested && book.isEmpty() && report.claimed() == 0) {
      w = store.taskWaiting(types.executableNames(), clock.instant());
    }
    if (!w.equals(waiting)) {
      String note = WaitNote.describe(w, clock.instant(), java.time.ZoneId.systemDefault());
      if (note != null) {
        log.info("runner {}: {}", options.owner(), note);
      }
    }
    waiting = w;
  }

  /**
   * What a runner that exits when idle is waiting for while it holds nothing and nothing is due, as
   * the last pass read it; empty otherwise.
   */
  public TaskWaiting waiting() {
    return waiting;
  }

  private boolean idle() throws InterruptedException {
    return signals.isEmpty()
        && leader.awaitVisitPass(VISIT_PASS_WAIT)
        && store.taskCountOutstanding(types.executableNames(), clock.instant()) == 0;
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
    if (stopRequested && stopDeadline.isAfter(now)) {
      // The pass at the deadline gives back what is left: it must not wait for a poll.
      waitMs = Math.min(waitMs, Duration.between(now, stopDeadline).toMillis() + 1);
    }
    if (!stopRequested && waitMs > 0) {
      startHandedOver(); // not behind the query below
      // A type whose slots are all taken needs no due time: a finishing worker wakes us first.
      // (So the leader may rescue an expired lease of such a type up to a poll interval late.)
      // Nor does work due already, which waits for a free slot: only what comes due in the sleep.
      Optional<Instant> next = store.taskNextDue(unsaturated, now, now.plusMillis(waitMs));
      if (next.isPresent()) {
        waitMs = Math.min(waitMs, Duration.between(now, next.get()).toMillis() + 1);
      }
    }
    nextStepBy = now.plusMillis(waitMs);
    signals.await(waitMs);
  }

  /** When the loop must run next on its own account: its row, its leases, the leader's duties. */
  private Instant nextDuty() {
    Instant due = housekeeping.nextDue();
    Instant duties = leader.nextDue();
    return leases.nextHeartbeat(duties.isBefore(due) ? duties : due);
  }
}
