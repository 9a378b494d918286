package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pass's transaction: builds an immutable {@link Pass} from the book (the starts and outcomes
 * not written yet, and claims for the room {@link Slots} give), has the store commit it, and only
 * then applies the result to the book and the stats. If the store throws, nothing in memory has
 * changed and the next pass carries the same starts and outcomes.
 */
final class PassWriter {
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

  PassWriter(
      Store store, String owner, RunBook book, Slots slots, RunnerStats stats, EventLog events) {
    this.store = store;
    this.owner = owner;
    this.book = book;
    this.slots = slots;
    this.stats = stats;
    this.events = events;
  }

  /** Writes what the book holds unwritten and, if {@code claiming}, claims; one transaction. */
  Written write(Instant now, boolean claiming) {
    List<ClaimRequest> requests = claiming ? slots.claimRequests(now) : List.of();
    Pass pass = new Pass(owner, now, book.startsToWrite(), book.completionsToWrite(), requests);
    if (pass.isEmpty()) {
      return Written.NOTHING;
    }
    // A stopwatch for metrics, not a reading of the time: the injected clock stays the only one.
    long started = System.nanoTime();
    PassResult result = store.taskPass(pass);
    stats.passNanos.addAndGet(System.nanoTime() - started);
    stats.passes.incrementAndGet();
    // Committed: from here on memory follows.
    book.startsWritten(pass.started());
    book.written(pass.completions());
    int completed = countWritten(pass.completions(), result.rejected());
    List<HeldRun> claimed = held(result.claimed(), requests, now);
    book.claimed(claimed);
    stats.claimed.addAndGet(claimed.size());
    return new Written(completed, claimed.size(), unsaturated(requests, result.claimed()));
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
