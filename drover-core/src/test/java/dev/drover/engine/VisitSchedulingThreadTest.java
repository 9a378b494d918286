package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.Stores;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the visit thread tells the runner's loop about when to wake: a loop told "now" (or any past
 * instant) does not sleep at all, so a runner with no visit to schedule must hear "never".
 */
class VisitSchedulingThreadTest {
  @TempDir Path dir;

  @Test
  void withNoVisitTypeToScheduleTheLoopIsNeverAskedToWake() throws Exception {
    Clock clock = Clock.systemUTC();
    try (Store store = Stores.open(StoreLocation.dataDir(dir))) {
      store.taskTypeCreate(TaskType.builder("work").build());
      try (VisitSchedulingThread visits = visitThread(store, clock, () -> {})) {
        assertThat(visits.nextDue()).as("before any pass").isEqualTo(Instant.MAX);
        visits.runDue(clock.instant(), store.taskTypeList(), true);
        assertThat(visits.awaitPass(Duration.ZERO)).as("no pass started").isTrue();
        assertThat(visits.nextDue()).as("no visit type").isEqualTo(Instant.MAX);
        visits.pause();
        assertThat(visits.nextDue()).as("after the leadership is lost").isEqualTo(Instant.MAX);
      }
    }
  }

  @Test
  void aLeaderWithAVisitTypeHearsWhenItsNextPassIsDue() throws Exception {
    Clock clock = Clock.systemUTC();
    AtomicInteger wakes = new AtomicInteger();
    try (Store store = Stores.open(StoreLocation.dataDir(dir))) {
      store.taskTypeCreate(TaskType.builder("load-git").build());
      List<TaskType> types = store.taskTypeList();
      try (VisitSchedulingThread visits = visitThread(store, clock, wakes::incrementAndGet)) {
        Instant before = clock.instant();
        visits.runDue(before, types, false);
        assertThat(visits.awaitPass(Duration.ofSeconds(30))).isTrue();
        // An empty frontier: the pass found no origins, so the next is the no-origins wait away.
        assertThat(visits.nextDue())
            .isAfter(before.plus(VisitSchedulerOptions.DEFAULT_NO_ORIGINS_WAIT).minusSeconds(1))
            .isBefore(Instant.MAX);
        assertThat(wakes.get()).isEqualTo(1);
        // An idle runner's loop asks on every turn: passes that change nothing do not wake it.
        for (int turn = 0; turn < 5; turn++) {
          visits.runDue(clock.instant(), types, true);
          assertThat(visits.awaitPass(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(wakes.get()).isEqualTo(1);
      }
    }
  }

  private static VisitSchedulingThread visitThread(Store store, Clock clock, Runnable wakeLoop) {
    VisitSchedulers schedulers =
        new VisitSchedulers(
            store,
            clock,
            new SplittableRandom(1),
            new EventLog(store, clock, "r"),
            new RunnerStats());
    return new VisitSchedulingThread(schedulers, clock, wakeLoop);
  }
}
