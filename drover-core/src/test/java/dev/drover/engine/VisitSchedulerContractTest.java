package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.config.VisitSchedulerConfig;
import dev.drover.engine.VisitSchedulerOptions.Share;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.VisitPolicy;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.StoreOptions;
import dev.drover.store.Stores;
import dev.drover.testing.Databases;
import dev.drover.testing.FaultProbe;
import dev.drover.testing.TestClock;
import dev.drover.testing.Wait;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The visit scheduler against a real store, on every database. */
@Timeout(120)
abstract class VisitSchedulerContractTest {
  static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
  @TempDir Path dir;
  StoreLocation location;
  Store store;
  TestClock clock = new TestClock(T0);
  Lister github;

  /** Where this test's stores live: new databases of the subclass's dialect, migrated and empty. */
  @RegisterExtension final Databases databases;

  VisitSchedulerContractTest(Databases databases) {
    this.databases = databases;
  }

  StoreLocation freshLocation() {
    return databases.fresh();
  }

  @BeforeEach
  void open() {
    location = freshLocation();
    store = Stores.open(location);
    github =
        store.frontier().listerGetOrCreate("github", null, null, T0.minus(Duration.ofDays(90)));
  }

  @AfterEach
  void close() {
    store.close();
  }

  private void loadType(long maxQueueLength) {
    store.taskTypeCreate(TaskType.builder("load-git").maxQueueLength(maxQueueLength).build());
  }

  private void origins(String prefix, int n, boolean withLastUpdate) {
    store
        .frontier()
        .originRecord(
            IntStream.range(0, n)
                .mapToObj(
                    i -> {
                      ListedOrigin o = ListedOrigin.of(github.id(), prefix + i, "git");
                      return withLastUpdate
                          ? o.withLastUpdate(T0.minus(Duration.ofDays(i + 1)))
                          : o;
                    })
                .toList(),
            T0.minus(Duration.ofDays(60)));
  }

  private VisitScheduler scheduler(List<Share> shares) {
    return new VisitScheduler(
        store,
        clock,
        new SplittableRandom(7),
        VisitSchedulerOptions.defaults("git").withShares(shares));
  }

  private List<Task> tasks() {
    return store.taskSearch(TaskQuery.all());
  }

  @Test
  void aPassEnqueuesOneVisitTaskPerGrabbedOrigin() {
    loadType(100);
    origins("https://example.org/r/", 9, true);
    store
        .frontier()
        .originRecord(
            List.of(
                ListedOrigin.of(github.id(), "https://example.org/special", "git")
                    .withLastUpdate(T0.minus(Duration.ofDays(50)))
                    .withExtraLoaderArguments(Json.parseObject("x", "{\"branch\": \"dev\"}"))),
            T0.minus(Duration.ofDays(60)));

    VisitScheduler.Pass pass =
        scheduler(List.of(new Share(VisitPolicy.NEVER_VISITED_OLDEST_UPDATE_FIRST, 1, null)))
            .runOnce();

    assertThat(pass)
        .isEqualTo(
            new VisitScheduler.Pass(
                100,
                0,
                100,
                Map.of("never_visited_oldest_update_first", 100),
                Map.of("never_visited_oldest_update_first", 10),
                10,
                Duration.ZERO));
    List<Task> tasks = tasks();
    assertThat(tasks)
        .hasSize(10)
        .allSatisfy(
            t -> {
              assertThat(t.type()).isEqualTo("load-git");
              assertThat(t.policy()).isEqualTo(TaskPolicy.ONESHOT);
              assertThat(t.nextRun()).isEqualTo(T0);
              assertThat(t.arguments().kwargs().get("lister_name").asText()).isEqualTo("github");
              assertThat(t.arguments().kwargs().get("lister_instance_name").isNull()).isTrue();
            });
    Task special =
        tasks.stream()
            .filter(t -> t.arguments().kwargs().get("url").asText().endsWith("special"))
            .findFirst()
            .orElseThrow();
    assertThat(special.arguments().kwargs().get("branch").asText()).isEqualTo("dev");
    assertThat(
            store
                .frontier()
                .visitStatsGet(List.of(new OriginKey("https://example.org/special", "git")))
                .get(0)
                .lastScheduled())
        .isEqualTo(T0);
  }

  @Test
  void theWeightsSplitTheFreeSlotsAndEachPolicyFillsItsShare() {
    loadType(50);
    origins("https://example.org/updated/", 30, true);
    origins("https://example.org/quiet/", 30, false);
    VisitScheduler.Pass pass = scheduler(VisitSchedulerOptions.defaultShares("other")).runOnce();
    assertThat(pass.wanted())
        .containsExactly(
            Map.entry("already_visited_order_by_lag", 20),
            Map.entry("never_visited_oldest_update_first", 20),
            Map.entry("origins_without_last_update", 10));
    assertThat(pass.grabbed())
        .containsExactly(
            Map.entry("already_visited_order_by_lag", 0),
            Map.entry("never_visited_oldest_update_first", 20),
            Map.entry("origins_without_last_update", 10));
    assertThat(pass.tasksCreated()).isEqualTo(30);
    assertThat(tasks()).hasSize(30);
  }

  /**
   * Issue 14, item 7: the git defaults sample 0.1 % of the table, which on a few thousand origins
   * is a few rows (SQLite) or no page at all (PostgreSQL): such a frontier never got visits. A
   * sample is taken only when the table is large enough for it to help.
   */
  @Test
  void theDefaultGitPoliciesVisitASmallFrontier() {
    loadType(1000);
    origins("https://example.org/r/", 3000, true);
    VisitScheduler.Pass pass =
        new VisitScheduler(
                store, clock, new SplittableRandom(7), VisitSchedulerOptions.defaults("git"))
            .runOnce();
    assertThat(pass.grabbed()).containsEntry("never_visited_oldest_update_first", 490);
    assertThat(pass.tasksCreated()).isEqualTo(490);
    assertThat(store.frontier().originRowsEstimate(10_000)).isBetween(3000L, 10_000L);
  }

  @Test
  void aFullQueueWaitsAndGrabsNothing() {
    loadType(20);
    origins("https://example.org/r/", 5, true);
    store.taskCreate(
        IntStream.range(0, 20)
            .mapToObj(i -> NewTask.oneshot("load-git", TaskArguments.of(List.of(i), null)))
            .toList(),
        T0);
    VisitScheduler.Pass pass = scheduler(VisitSchedulerOptions.defaultShares("other")).runOnce();
    assertThat(pass.slots()).isZero();
    assertThat(pass.nextWait()).isEqualTo(VisitSchedulerOptions.DEFAULT_QUEUE_FULL_WAIT);
    assertThat(
            store
                .frontier()
                .visitStatsGet(List.of(new OriginKey("https://example.org/r/0", "git"))))
        .isEmpty();
  }

  /**
   * Issue 15, item 5: a queue that drains fast is refilled when half of it is free, at the pace it
   * drains, not after the queue-full wait (a minute, in which a queue of 1,000 drained at 1,000/s
   * sits empty for 59 s); a queue that stops draining is counted again at longer and longer waits,
   * up to the queue-full wait.
   */
  @Test
  void theLeaderRefillsAQueueWhenHalfIsFreeAtThePaceItDrains() {
    loadType(10);
    origins("https://example.org/r/", 40, true);
    store.settingPut(
        VisitSchedulerConfig.TYPE_SETTING_PREFIX + "git",
        "{\"enabled\":true,\"policies\":{\"never_visited_oldest_update_first\":{\"weight\":1}}}");
    RunnerStats stats = new RunnerStats();
    VisitSchedulers leader =
        new VisitSchedulers(
            store, clock, new SplittableRandom(7), new EventLog(store, clock, "leader"), stats);
    List<TaskType> types = store.taskTypeList();

    assertThat(leader.runOnce(T0, types, false)).isEqualTo(10);
    assertThat(leader.nextDue()).as("no drain measured: count again at once").isEqualTo(T0);
    assertThat(leader.runOnce(T0, types, false)).isZero();
    Instant probe = T0.plus(VisitQueuePace.PROBE);
    assertThat(leader.nextDue()).isBetween(probe, probe.plusMillis(100));

    // The ten visits end before the next pass: the queue drained at 10 per elapsed time, so half
    // of it is free again half that time after the refill; the next pass starts early by as long
    // as the refill took.
    Instant refill = leader.nextDue();
    clock.set(refill);
    store.taskDelete(tasks().stream().map(Task::id).toList(), false, refill);
    double before = stats.visitPassSeconds();
    assertThat(leader.runOnce(refill, types, false)).isEqualTo(10);
    long tookMillis = (long) ((stats.visitPassSeconds() - before) * 1000);
    Duration half = Duration.between(T0, refill).dividedBy(2);
    Instant due = refill.plus(half).minusMillis(tookMillis);
    assertThat(leader.nextDue())
        .isBetween(due.minusMillis(1), due.plus(half.dividedBy(10)).plusMillis(1));

    // The queue stops draining: each pass finds it full, the drain averaged over the last seconds
    // falls, and the waits grow until they reach the queue-full wait.
    Duration lastWait = half;
    int passes = 3;
    Instant now = leader.nextDue();
    for (; passes < 60; passes++) {
      clock.set(now);
      assertThat(leader.runOnce(now, types, false)).as("nothing drained: full").isZero();
      Duration wait = Duration.between(now, leader.nextDue());
      assertThat(wait).as("pass %d", passes).isGreaterThan(lastWait);
      if (wait.compareTo(VisitSchedulerOptions.DEFAULT_QUEUE_FULL_WAIT) >= 0) {
        assertThat(wait)
            .isLessThanOrEqualTo(
                VisitSchedulerOptions.DEFAULT_QUEUE_FULL_WAIT.plus(
                    VisitSchedulerOptions.DEFAULT_MAX_SPLAY));
        break;
      }
      lastWait = wait;
      now = leader.nextDue();
    }
    assertThat(passes).as("the queue-full wait was reached").isLessThan(60);
    assertThat(stats.visitPasses()).isEqualTo(passes + 1);
    assertThat(stats.visitPassSeconds()).isPositive();
  }

  /**
   * A pass that fails at any step leaves the leader as if it had not run (no pass counted, the
   * drain not measured) and is tried again after the queue-full wait; the next pass schedules each
   * origin once. The grabs and the tasks commit together, so a pass that failed after its marks
   * left none: the next pass takes the same origins, the policy's first ten.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "taskTypeGet",
        "taskCountOutstanding",
        "visitGrab",
        "visitMarkScheduled",
        FaultProbe.COMMIT,
        "taskFindDuplicates"
      })
  void aPassThatFailsAtAnyStepIsTriedAgainAndSchedulesEachOriginOnce(String step) {
    loadType(10);
    origins("https://example.org/r/", 40, true);
    store.settingPut(
        VisitSchedulerConfig.TYPE_SETTING_PREFIX + "git",
        "{\"enabled\":true,\"policies\":{\"never_visited_oldest_update_first\":{\"weight\":1}}}");
    FaultProbe probe = new FaultProbe(step, Set.of(1), Set.of("visitMarkScheduled"));
    try (Store faulty = Stores.open(location, StoreOptions.DEFAULT.withProbe(probe))) {
      RunnerStats stats = new RunnerStats();
      VisitSchedulers leader =
          new VisitSchedulers(
              faulty, clock, new SplittableRandom(7), new EventLog(faulty, clock, "leader"), stats);
      List<TaskType> types = faulty.taskTypeList();

      assertThat(leader.runOnce(T0, types, false)).isZero();
      assertThat(probe.fired()).as("fault at " + step).isEqualTo(1);
      assertThat(stats.visitPasses()).isZero();
      Instant retry = T0.plus(VisitSchedulerOptions.DEFAULT_QUEUE_FULL_WAIT);
      assertThat(leader.nextDue()).isEqualTo(retry);

      clock.set(retry);
      assertThat(leader.runOnce(retry, types, false)).isEqualTo(10);
      assertThat(stats.visitPasses()).isEqualTo(1);
      assertThat(leader.nextDue()).as("no drain measured yet: count again").isEqualTo(retry);
    }
    List<String> urls =
        tasks().stream().map(t -> t.arguments().kwargs().get("url").asText()).toList();
    assertThat(urls)
        .hasSize(10)
        .doesNotHaveDuplicates()
        .allSatisfy(url -> assertThat(url).matches("https://example\\.org/r/3[0-9]"));
  }

  @Test
  void theQueueCountsTheVisitsAlreadyEnqueuedAndCooldownsStopRepeats() {
    loadType(100);
    origins("https://example.org/r/", 10, true);
    VisitScheduler s = scheduler(VisitSchedulerOptions.defaultShares("other"));
    assertThat(s.runOnce().tasksCreated()).isEqualTo(10);
    clock.advance(Duration.ofMinutes(1));
    VisitScheduler.Pass second = s.runOnce();
    assertThat(second.slots()).isEqualTo(90);
    assertThat(second.tasksCreated()).isZero();
    assertThat(second.nextWait()).isEqualTo(VisitSchedulerOptions.DEFAULT_NO_ORIGINS_WAIT);
  }

  @Test
  void aVisitTypeWithoutItsLoadTaskTypeIsRefused() {
    assertThatThrownBy(() -> scheduler(VisitSchedulerOptions.defaultShares("git")).runOnce())
        .isInstanceOf(ValidationException.class)
        .hasMessage("visit_type: no task type 'load-git' to run visits of type 'git'");
  }

  @Test
  void runKeepsPassingUntilStopped() throws Exception {
    loadType(100);
    origins("https://example.org/r/", 3, true);
    VisitScheduler s =
        new VisitScheduler(
            store,
            clock,
            new SplittableRandom(7),
            VisitSchedulerOptions.defaults("git")
                .withShares(VisitSchedulerOptions.defaultShares("other"))
                .withWaits(Duration.ofMillis(10), Duration.ofMillis(10), Duration.ZERO));
    ExecutorService background = Executors.newSingleThreadExecutor();
    try {
      Future<?> running =
          background.submit(
              () -> {
                s.run();
                return null;
              });
      Wait.until("three tasks", Duration.ofSeconds(30), () -> tasks().size() >= 3);
      s.stop();
      s.stop();
      running.get(30, TimeUnit.SECONDS);
      assertThat(tasks()).hasSize(3);
    } finally {
      background.shutdownNow();
    }
  }
}
