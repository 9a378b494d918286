package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.DroverException;
import dev.drover.Json;
import dev.drover.model.EventKind;
import dev.drover.model.TaskType;
import dev.drover.store.Claim;
import dev.drover.store.ClaimRequest;
import dev.drover.store.Completion;
import dev.drover.store.Lease;
import dev.drover.store.Pass;
import dev.drover.store.PassResult;
import dev.drover.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pass's transactions: builds an immutable {@link Pass} from the book (the starts and outcomes
 * not written yet, and claims for the room {@link Slots} give), has the store commit it, and only
 * then applies the result to the book and the stats. If the store throws, nothing in memory has
 * changed and the next pass carries the same starts and outcomes.
 *
 * <p>On a database whose writers run side by side (PostgreSQL), a pass that both writes and claims
 * commits its writes and its claims as two transactions at once, on two connections: the server
 * works on both while the runner waits once. Each half commits whole or not at all, and memory
 * follows each half that committed; if either failed, the pass then throws, and the next pass
 * carries what did not commit. The halves touch different rows (the writes this runner's leased
 * tasks and their runs, the claims tasks nobody holds), so they never wait for each other. A claim
 * no longer sees the results committed beside it: a task a result makes due again, or a key it
 * frees under a per-key limit, is claimed by the next pass. On SQLite, whose writers take turns, a
 * pass stays one transaction.
 *
 * <p>While the writes half commits, the runner need not wait idle: each time new work may be due
 * ({@link #nudge}), it claims again on its own thread, in a transaction of claims only, and puts
 * workers on what it claimed. Under a steady trickle of tasks, each new task used to wait for the
 * results of the tasks before it to be written first (on PostgreSQL here, the p90 of a sustained
 * 100 tasks/s fell from 12 to 5.8 ms). Memory follows each of these claims as it commits, as it
 * follows each half.
 */
final class PassWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PassWriter.class);

  /** What one pass wrote and claimed, and which types may have more due (not saturated). */
  record Written(int completed, int claimed, List<String> unsaturated) {
    static final Written NOTHING = new Written(0, 0, List.of());
  }

  private final Store store;
  private final String owner;
  private final RunBook book;
  private final Slots slots;
  private final RunnerStats stats;
  private final EventLog events;
  private final UnkeptRunDirs unkeptRunDirs;

  private final Clock clock;

  /** Whether the runner still claims (not once asked to stop). */
  private final BooleanSupplier mayClaim;

  /**
   * Puts workers on the claimed runs that have a free slot, those that creates claimed for the
   * runner included; the loop thread's.
   */
  private final Runnable dispatch;

  /** Commits the writes half of a split pass; null where a pass stays one transaction. */
  private final ExecutorService writesThread;

  /** New work may be due, or the writes half has finished: see {@link #claimWhileWriting}. */
  private final Semaphore nudges = new Semaphore(0);

  PassWriter(
      Store store,
      String owner,
      RunBook book,
      Slots slots,
      RunnerStats stats,
      EventLog events,
      UnkeptRunDirs unkeptRunDirs,
      Clock clock,
      BooleanSupplier mayClaim,
      Runnable dispatch) {
    this.store = store;
    this.owner = owner;
    this.book = book;
    this.slots = slots;
    this.stats = stats;
    this.events = events;
    this.unkeptRunDirs = unkeptRunDirs;
    this.clock = clock;
    this.mayClaim = mayClaim;
    this.dispatch = dispatch;
    this.writesThread =
        store.dialect().writersRunSideBySide()
            ? Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "drover-pass-writes-" + owner);
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /**
   * Writes what the book holds unwritten and, if {@code claiming}, claims: one transaction, or two
   * at once where the database allows (see the class comment).
   */
  Written write(Instant now, boolean claiming) {
    if (claiming) {
      // The claims below see what was created so far. What creates handed over meanwhile, whose
      // wake-ups the drain takes, gets its workers now: not after the writes, and not counted as
      // free slots by the claims.
      nudges.drainPermits();
      dispatch.run();
    }
    List<ClaimRequest> requests = claiming ? slots.claimRequests(now) : List.of();
    Pass pass = new Pass(owner, now, book.startsToWrite(), book.completionsToWrite(), requests);
    if (pass.isEmpty()) {
      return Written.NOTHING;
    }
    boolean writes = !pass.started().isEmpty() || !pass.completions().isEmpty();
    // A stopwatch for metrics, not a reading of the time: the injected clock stays the only one.
    long started = System.nanoTime();
    Written written =
        writesThread != null && writes && !requests.isEmpty()
            ? commitSideBySide(pass)
            : commitWhole(pass);
    stats.passNanos.addAndGet(System.nanoTime() - started);
    stats.passes.incrementAndGet();
    return written;
  }

  private Written commitWhole(Pass pass) {
    PassResult result = store.taskPass(pass);
    // Committed: from here on memory follows.
    int completed = applyWrites(pass, result);
    int claimed = applyClaims(pass, result);
    return new Written(completed, claimed, unsaturated(pass.claims(), result.claimed()));
  }

  /**
   * The writes on the writes thread and the claims on this one, at once; memory follows each half
   * that committed, then the first failure, if any, is thrown.
   */
  private Written commitSideBySide(Pass pass) {
    Pass writes = new Pass(owner, pass.now(), pass.started(), pass.completions(), List.of());
    Pass claims = new Pass(owner, pass.now(), List.of(), List.of(), pass.claims());
    FutureTask<PassResult> writing =
        new FutureTask<>(() -> store.taskPass(writes)) {
          @Override
          protected void done() {
            nudges.release(); // once isDone() holds: the wait below ends
          }
        };
    writesThread.execute(writing);
    RuntimeException failure = null;
    int claimed = 0;
    List<String> unsaturated = List.of();
    try {
      Written first = claimAndDispatch(claims);
      Written meanwhile = claimWhileWriting(writing);
      claimed = first.claimed() + meanwhile.claimed();
      unsaturated = meanwhile.claimed() > 0 ? meanwhile.unsaturated() : first.unsaturated();
    } catch (RuntimeException e) {
      failure = e;
    }
    int completed = 0;
    try {
      completed = applyWrites(writes, awaitWrites(writing));
    } catch (RuntimeException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    return new Written(completed, claimed, unsaturated);
  }

  /**
   * New work may be due (a task was created, or came due): a split pass whose writes are still
   * committing claims it meanwhile. Any thread.
   */
  void nudge() {
    nudges.release();
  }

  /**
   * Until {@code writing} is done, claims each time {@link #nudge} says new work may be due, and
   * puts workers on it: one transaction of claims only each time, on this thread, which memory
   * follows once it commits. Returns what was claimed, and the types the last claim left
   * unsaturated; a failed claim is thrown at once, and the caller still awaits the writes. An
   * interrupt ends the wait with the thread's flag set, for the caller's wait on the writes.
   */
  private Written claimWhileWriting(Future<PassResult> writing) {
    int claimed = 0;
    List<String> unsaturated = List.of();
    while (!writing.isDone()) {
      try {
        nudges.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      dispatch.run(); // claims that creates committed meanwhile
      Instant now = clock.instant();
      List<ClaimRequest> requests =
          writing.isDone() || !mayClaim.getAsBoolean() ? List.of() : slots.claimRequests(now);
      if (requests.isEmpty()) {
        continue;
      }
      Written w = claimAndDispatch(new Pass(owner, now, List.of(), List.of(), requests));
      claimed += w.claimed();
      unsaturated = w.unsaturated();
    }
    return new Written(0, claimed, unsaturated);
  }

  /**
   * Commits a pass of claims only, on this thread; once it committed, the book follows and workers
   * go on what it claimed, while the results of the same pass may still be being written.
   */
  private Written claimAndDispatch(Pass claims) {
    PassResult result = store.taskPass(claims);
    int claimed = applyClaims(claims, result);
    if (claimed > 0) {
      dispatch.run();
    }
    return new Written(0, claimed, unsaturated(claims.claims(), result.claimed()));
  }

  /**
   * The writes half's result, or its failure. If this thread is interrupted meanwhile (a stop that
   * overran its grace), the writes are interrupted too and the pass fails: the runner is leaving,
   * and what they held is left to the leases.
   */
  private static PassResult awaitWrites(Future<PassResult> writing) {
    try {
      return writing.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new DroverException("the pass's writes failed", e.getCause());
    } catch (InterruptedException e) {
      writing.cancel(true);
      Thread.currentThread().interrupt();
      throw new DroverException("interrupted while the pass's writes commit", e);
    }
  }

  /** The book and the stats after a committed write of the pass's starts and outcomes. */
  private int applyWrites(Pass pass, PassResult result) {
    book.startsWritten(pass.started());
    Map<Lease, HeldRun> ended = book.written(pass.completions());
    unkeptRunDirs.committed(result.notKept(), ended);
    return countWritten(pass.completions(), result.rejected());
  }

  /** The book and the stats after committed claims. */
  private int applyClaims(Pass pass, PassResult result) {
    List<HeldRun> claimed = held(result.claimed(), pass.claims(), pass.now());
    book.claimed(claimed);
    stats.claimed.addAndGet(claimed.size());
    return claimed.size();
  }

  @Override
  public void close() {
    if (writesThread != null) {
      writesThread.shutdownNow();
    }
  }

  private int countWritten(List<Completion> completions, List<Lease> rejected) {
    for (Lease l : rejected) {
      log.warn(
          "task {} attempt {}: lease lost before its result was written; result discarded",
          l.taskId(),
          l.attempt());
      ObjectNode d = Json.object();
      d.put("attempt", l.attempt());
      events.add(EventKind.LEASE_LOST, l.taskId(), d);
    }
    stats.leasesLost.addAndGet(rejected.size());
    Set<Lease> lost = new HashSet<>(rejected);
    for (Completion c : completions) {
      if (!lost.contains(c.lease())) {
        stats.count(c.status());
      }
    }
    return completions.size() - rejected.size();
  }

  private static List<HeldRun> held(List<Claim> claims, List<ClaimRequest> requests, Instant now) {
    Map<String, TaskType> types = new HashMap<>();
    requests.forEach(r -> types.put(r.type().name(), r.type()));
    List<HeldRun> runs = new ArrayList<>(claims.size());
    for (Claim c : claims) {
      runs.add(new HeldRun(c, types.get(c.task().type()), now));
    }
    return runs;
  }

  /** The types that got fewer than they asked for: they may be waiting for future work. */
  private static List<String> unsaturated(List<ClaimRequest> requests, List<Claim> claims) {
    Map<String, Integer> got = new HashMap<>();
    claims.forEach(c -> got.merge(c.task().type(), 1, Integer::sum));
    return requests.stream()
        .filter(r -> got.getOrDefault(r.type().name(), 0) < r.limit())
        .map(r -> r.type().name())
        .toList();
  }
}
