package dev.drover.app.http;

import dev.drover.Drover;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskType;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges read from the store: tasks per type and status (one grouped count), and per type the age
 * of the oldest due task (one index step per type).
 *
 * <p>Why in the background: the grouped count reads every task, about a second for 1,000,000 tasks
 * on SQLite, and a scrape must answer in milliseconds whatever the store's size. So a scrape serves
 * the last values at once and, when they are older than {@link #MAX_AGE}, starts one read in the
 * background for the next scrape; {@code drover_store_gauges_age_seconds} says how old the served
 * values are. Only the very first scrape waits, for the read started with the server. Nothing is
 * read while nobody scrapes.
 */
final class StoreGauges implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StoreGauges.class);
  static final Duration MAX_AGE = Duration.ofSeconds(5);

  private final Drover drover;
  private final MultiGauge tasks;
  private final MultiGauge oldestDue;
  private final ExecutorService reader =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "drover-store-gauges");
            t.setDaemon(true);
            return t;
          });
  private final CompletableFuture<Void> first;
  private volatile Instant readAt;
  private CompletableFuture<Void> reading;

  StoreGauges(Drover drover, MeterRegistry registry) {
    this.drover = drover;
    this.tasks =
        MultiGauge.builder("drover.tasks")
            .description("Tasks by type and status, as drover status counts them")
            .register(registry);
    this.oldestDue =
        MultiGauge.builder("drover.task.oldest.due.age")
            .description("Seconds since the oldest due task of each type came due (0: none due)")
            .baseUnit("seconds")
            .register(registry);
    Gauge.builder("drover.store.gauges.age", this, g -> g.age())
        .description("How old the values of drover_tasks and the oldest due ages are")
        .baseUnit("seconds")
        .register(registry);
    this.first = CompletableFuture.runAsync(this::read, reader);
    this.reading = first;
  }

  /** Called at each scrape: waits only for the first read; starts a new one if stale. */
  void refresh() {
    first.join();
    synchronized (this) {
      boolean stale = Duration.between(readAt, drover.now()).compareTo(MAX_AGE) >= 0;
      if (stale && reading.isDone()) {
        reading = CompletableFuture.runAsync(this::read, reader);
      }
    }
  }

  private void read() {
    try {
      Instant now = drover.now();
      List<MultiGauge.Row<?>> counts = new ArrayList<>();
      for (StatusCount c : drover.statusCounts()) {
        counts.add(
            MultiGauge.Row.of(Tags.of("type", c.type(), "status", c.status().dbName()), c.count()));
      }
      List<MultiGauge.Row<?>> ages = new ArrayList<>();
      for (TaskType type : drover.taskTypes()) {
        double age =
            drover
                .store()
                .taskOldestWaiting(type.name())
                .filter(t -> t.isBefore(now))
                .map(t -> Duration.between(t, now).toMillis() / 1000.0)
                .orElse(0.0);
        ages.add(MultiGauge.Row.of(Tags.of("type", type.name()), age));
      }
      tasks.register(counts, true);
      oldestDue.register(ages, true);
      readAt = now;
    } catch (RuntimeException e) {
      log.warn("metrics: cannot read task counts from the store: {}", e.getMessage());
      if (readAt == null) {
        readAt = Instant.EPOCH; // the first scrape answers without them rather than failing
      }
    }
  }

  private double age() {
    Instant at = readAt;
    return at == null ? Double.NaN : Duration.between(at, drover.now()).toMillis() / 1000.0;
  }

  @Override
  public void close() {
    reader.shutdownNow();
  }
}
