package dev.drover.app.http;

import dev.drover.Drover;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskType;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Gauges read from the store when Prometheus scrapes: tasks per type and status (one grouped
 * count), and per type the age of the oldest due task (one index step per type). Read at most once
 * per {@link #MAX_AGE}, so that several scrapers, or a dashboard refreshing, cost one read.
 */
final class StoreGauges {
  static final Duration MAX_AGE = Duration.ofSeconds(5);

  private final Drover drover;
  private final MultiGauge tasks;
  private final MultiGauge oldestDue;
  private Instant readAt;

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
  }

  synchronized void refresh() {
    Instant now = drover.now();
    if (readAt != null && Duration.between(readAt, now).compareTo(MAX_AGE) < 0) {
      return;
    }
    List<MultiGauge.Row<?>> counts = new ArrayList<>();
    for (StatusCount c : drover.statusCounts()) {
      counts.add(
          MultiGauge.Row.of(Tags.of("type", c.type(), "status", c.status().dbName()), c.count()));
    }
    tasks.register(counts, true);
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
    oldestDue.register(ages, true);
    readAt = now;
  }
}
