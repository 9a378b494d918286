package dev.drover.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.VisitRequest;
import dev.drover.model.DurationText;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the visit queue of one visit type fed (reference section 3, "schedule-recurrent"): each
 * pass counts the free slots of the {@code load-<visit type>} task queue, lets every policy grab
 * its weighted share of them, shuffles what came back and enqueues one one-shot task per origin,
 * with keyword arguments {@code url}, {@code lister_name}, {@code lister_instance_name} and the
 * origin's extra loader arguments.
 *
 * <p>A pass's grabs and the tasks made of them commit in one transaction ({@link
 * Store#visitSchedule}): an origin is marked scheduled with its visit task or not at all, so a pass
 * that fails or dies half-way leaves nothing to wait out, and no origin is visited twice. Only one
 * scheduler per visit type should run (the leader's job).
 */
public final class VisitScheduler {
  private static final Logger log = LoggerFactory.getLogger(VisitScheduler.class);

  /** As the reference: at most this many slots per pass, and 5 % of the queue must be free. */
  static final int MAX_SLOTS = 10_000;

  static final double MIN_FREE_SHARE = 0.05;

  /**
   * A share's table sample is taken only when it is expected to hold at least this many times the
   * origins the share asks for, and at least {@link #MIN_SAMPLE_ROWS}; otherwise the share reads
   * the whole table (through its policy's index, ordered, so it stops after {@code count} rows).
   * Sampling exists to spare a huge frontier the rows the policy's filter and cooldowns skip; on a
   * small one it only loses origins: PostgreSQL samples whole pages (SQLite blocks of 32 rowids),
   * so 0.1 % of a few thousand origins (a few dozen pages) is one page or none, and the rows of a
   * sample that pass the filter and cooldowns are a fraction of it. With the git default (0.1 %)
   * and a share of 490 that is about 5 million origins, the scale the reference samples at.
   */
  static final int SAMPLE_HEADROOM = 10;

  static final long MIN_SAMPLE_ROWS = 1_000;

  private final Store store;
  private final Clock clock;
  private final RandomGenerator random;
  private final VisitSchedulerOptions options;
  private final Object wakeup = new Object();
  private volatile boolean stopRequested;

  public VisitScheduler(
      Store store, Clock clock, RandomGenerator random, VisitSchedulerOptions options) {
    this.store = store;
    this.clock = clock;
    this.random = random;
    this.options = options;
  }

  /**
   * What one pass did.
   *
   * @param slots free places in the task queue
   * @param queued tasks in the queue when the pass counted them
   * @param capacity the queue's length ({@code max_queue_length} of its task type)
   * @param wanted origins each policy asked for
   * @param grabbed origins each policy got
   * @param tasksCreated visit tasks enqueued
   * @param nextWait how long to wait before the next pass (before splay)
   */
  record Pass(
      int slots,
      long queued,
      long capacity,
      Map<String, Integer> wanted,
      Map<String, Integer> grabbed,
      int tasksCreated,
      Duration nextWait) {}

  /** Runs passes until {@link #stop()}. */
  public void run() throws InterruptedException {
    log.info("visit scheduler for {} started", options.visitType());
    while (!stopRequested) {
      Pass pass = runOnce();
      long splay = (long) (random.nextDouble() * options.maxSplay().toMillis());
      long waitMillis = pass.nextWait().toMillis() + (pass.nextWait().isZero() ? 0 : splay);
      if (waitMillis > 0) {
        synchronized (wakeup) {
          if (!stopRequested) {
            wakeup.wait(waitMillis);
          }
        }
      }
    }
    log.info("visit scheduler for {} stopped", options.visitType());
  }

  /** Asks {@link #run()} to return after the pass in hand; safe to call more than once. */
  public void stop() {
    stopRequested = true;
    synchronized (wakeup) {
      wakeup.notifyAll();
    }
  }

  Pass runOnce() {
    Instant now = clock.instant();
    TaskType type =
        store
            .taskTypeGet(options.taskType())
            .orElseThrow(
                () ->
                    new ValidationException(
                        "visit_type",
                        "no task type '"
                            + options.taskType()
                            + "' to run visits of type '"
                            + options.visitType()
                            + "'"));
    long queued = store.taskCountOutstanding(List.of(type.name()), now);
    int slots = (int) Math.max(0, Math.min(type.maxQueueLength() - queued, MAX_SLOTS));
    if (slots < type.maxQueueLength() * MIN_FREE_SHARE) {
      return new Pass(
          slots, queued, type.maxQueueLength(), Map.of(), Map.of(), 0, options.queueFullWait());
    }
    double totalWeight =
        options.shares().stream().mapToDouble(VisitSchedulerOptions.Share::weight).sum();
    Map<String, Integer> wanted = new LinkedHashMap<>();
    Map<String, Integer> grabbed = new LinkedHashMap<>();
    List<VisitRequest> requests = new ArrayList<>();
    for (VisitSchedulerOptions.Share share : options.shares()) {
      int count = (int) (slots * share.weight() / totalWeight);
      wanted.put(share.policy().dbName(), count);
      grabbed.put(share.policy().dbName(), 0);
      if (count > 0) {
        requests.add(
            VisitRequest.builder(options.visitType(), count, share.policy())
                .tablesample(sampleWorthTaking(share, count))
                .build());
      }
    }
    List<List<ListedOrigin>> got =
        store.visitSchedule(
            requests, (chosen, listers) -> tasks(type.name(), chosen, listers, now), now);
    int chosen = 0;
    for (int i = 0; i < requests.size(); i++) {
      VisitRequest r = requests.get(i);
      int n = got.get(i).size();
      grabbed.put(r.policy().dbName(), n);
      chosen += n;
      if (Math.abs(n - r.count()) > r.count() * 0.05) {
        log.debug(
            "{} policy {} got {} of {} origins",
            options.visitType(),
            r.policy().dbName(),
            n,
            r.count());
      }
    }
    if (chosen == 0) {
      log.info(
          "visit scheduling of {} found no origins to visit ({} free places, policies {}); next"
              + " pass in {}",
          options.visitType(),
          slots,
          wanted.keySet(),
          DurationText.format(options.noOriginsWait()));
      return new Pass(
          slots, queued, type.maxQueueLength(), wanted, grabbed, 0, options.noOriginsWait());
    }
    return new Pass(slots, queued, type.maxQueueLength(), wanted, grabbed, chosen, Duration.ZERO);
  }

  /**
   * The share's sample percentage if the table is large enough for it to help (see {@link
   * #SAMPLE_HEADROOM}), else null: the whole table.
   */
  private Double sampleWorthTaking(VisitSchedulerOptions.Share share, int count) {
    Double percent = share.tablesample();
    if (percent == null || percent >= 100) {
      return null;
    }
    double sampledRowsNeeded = Math.max(MIN_SAMPLE_ROWS, (double) SAMPLE_HEADROOM * count);
    long rowsNeeded = (long) Math.ceil(sampledRowsNeeded * 100 / percent);
    long rows = store.frontier().originRowsEstimate(rowsNeeded);
    if (rows < rowsNeeded) {
      log.debug(
          "{} policy {}: no {} % sample of about {} origins (it pays from {})",
          options.visitType(), share.policy().dbName(), percent, rows, rowsNeeded);
      return null;
    }
    return percent;
  }

  /** Fisher-Yates with the injected generator, so a seeded test sees one order. */
  private void shuffle(List<ListedOrigin> list) {
    for (int i = list.size() - 1; i > 0; i--) {
      Collections.swap(list, i, random.nextInt(i + 1));
    }
  }

  /** One visit task per origin, due at {@code now}, in a shuffled order of the policies' picks. */
  private List<NewTask> tasks(
      String type, List<ListedOrigin> chosen, Map<UUID, Lister> listers, Instant now) {
    List<ListedOrigin> origins = new ArrayList<>(chosen);
    shuffle(origins);
    return origins.stream()
        .map(
            o -> {
              Lister l = listers.get(o.listerId());
              ObjectNode kwargs = Json.object();
              kwargs.put("url", o.url());
              kwargs.put("lister_name", l == null ? null : l.name());
              kwargs.put(
                  "lister_instance_name",
                  l == null || l.instanceName().isEmpty() ? null : l.instanceName());
              // As the reference: the origin's extra loader arguments come last and win.
              kwargs.setAll(o.extraLoaderArguments());
              return NewTask.oneshot(type, new TaskArguments(null, kwargs)).withNextRun(now);
            })
        .toList();
  }
}
