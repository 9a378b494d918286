package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.Outcome;
import dev.drover.TaskHandler;
import dev.drover.config.VisitSchedulerConfig;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.model.Event;
import dev.drover.model.Task;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreOptions;
import dev.drover.store.StoreProbe;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The leader schedules origin visits as {@code load-<visit type>} tasks, and their outcomes reach
 * visit stats. Mixed into {@link RunnerContractTest}, so it runs on every database.
 */
interface VisitSchedulingRunnerContract {
  List<String> URLS = List.of("https://a", "https://b", "https://c", "https://d");

  Store store();

  RunnerOptions options();

  Runner runner(RunnerOptions options, Map<String, TaskHandler> handlers);

  java.util.concurrent.ExecutorService background();

  /** A store on the same database as {@link #store()}, opened with {@code options}. */
  Store openAnother(StoreOptions options);

  /** Four "web" origins: two the forge says were updated, two it says nothing of. */
  private void origins() {
    Instant now = Clock.systemUTC().instant();
    Lister l =
        store().frontier().listerGetOrCreate("forge", "", null, now.minus(Duration.ofDays(30)));
    Instant updated = now.minus(Duration.ofDays(3));
    store()
        .frontier()
        .originRecord(
            List.of(
                ListedOrigin.of(l.id(), URLS.get(0), "web").withLastUpdate(updated),
                ListedOrigin.of(l.id(), URLS.get(1), "web").withLastUpdate(updated),
                ListedOrigin.of(l.id(), URLS.get(2), "web"),
                ListedOrigin.of(l.id(), URLS.get(3), "web")),
            now.minus(Duration.ofDays(1)));
    store().taskTypeCreate(TaskType.builder("load-web").maxWorkers(2).build());
  }

  /** A loader that archives snapshot "s-URL". */
  private static TaskHandler loader() {
    return ctx -> {
      ObjectNode r = Json.object();
      r.put("snapshot", "s-" + ctx.arguments().kwargs().get("url").asText());
      return new Outcome(TaskRunStatus.EVENTFUL, r);
    };
  }

  private List<Task> visitTasks() {
    return store().taskSearch(TaskQuery.all()).stream()
        .filter(t -> t.type().equals("load-web"))
        .toList();
  }

  private List<OriginVisitStats> stats() {
    return store()
        .frontier()
        .visitStatsGet(URLS.stream().map(u -> new OriginKey(u, "web")).toList());
  }

  private List<Event> events(String kind) {
    return store().eventList(0, 10_000).stream().filter(e -> e.kind().equals(kind)).toList();
  }

  @Test
  default void theLeaderSchedulesEveryOriginOnceAndTheVisitOutcomesReachVisitStats()
      throws Exception {
    origins();
    runner(options(), Map.of("load-web", loader())).run();

    assertThat(visitTasks())
        .hasSize(4)
        .allMatch(t -> t.status() == TaskStatus.COMPLETED)
        .extracting(t -> t.arguments().kwargs().get("url").asText())
        .containsExactlyInAnyOrderElementsOf(URLS);
    assertThat(visitTasks())
        .allMatch(t -> t.arguments().kwargs().get("lister_name").asText().equals("forge"));
    assertThat(stats())
        .hasSize(4)
        .allSatisfy(
            s -> {
              assertThat(s.lastVisitStatus()).isEqualTo(LastVisitStatus.SUCCESSFUL);
              assertThat(s.lastSnapshot()).isEqualTo("s-" + s.url());
              assertThat(s.lastScheduled()).isNotNull().isBefore(s.lastVisit());
              assertThat(s.nextVisitQueuePosition()).isNotNull();
            });
    assertThat(events("visits_scheduled"))
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.detail().get("visit_type").asText()).isEqualTo("web"));
    assertThat(
            events("visits_scheduled").stream()
                .mapToInt(e -> e.detail().get("tasks").asInt())
                .sum())
        .isEqualTo(4);
  }

  /** Issue 14, item 7: a pass that finds nothing to visit says so in the event log. */
  @Test
  default void aPassThatFindsNothingToVisitIsAnEvent() throws Exception {
    origins();
    // The first pass schedules the four origins; once their visits ran, the next finds none (they
    // are on cooldown).
    runner(options(), Map.of("load-web", loader())).run();
    assertThat(visitTasks()).hasSize(4);
    assertThat(events("no_origins_to_visit"))
        .isNotEmpty()
        .allSatisfy(
            e -> {
              assertThat(e.detail().get("visit_type").asText()).isEqualTo("web");
              assertThat(e.detail().get("next_pass_in").asText()).isNotEmpty();
            });
  }

  @Test
  default void noVisitsAreScheduledWhenTheSettingsTurnSchedulingOff() throws Exception {
    origins();
    store()
        .settingPut(
            VisitSchedulerConfig.TYPE_SETTING_PREFIX + "web",
            "{\"enabled\":false,\"policies\":{}}");
    runner(options(), Map.of("load-web", loader())).run();
    assertThat(visitTasks()).isEmpty();

    store()
        .settingPut(
            VisitSchedulerConfig.TYPE_SETTING_PREFIX + "web", "{\"enabled\":true,\"policies\":{}}");
    store().settingPut(VisitSchedulerConfig.ENABLED_SETTING, "false");
    runner(options(), Map.of("load-web", loader())).run();
    assertThat(visitTasks()).isEmpty();
    assertThat(stats()).isEmpty();

    store().settingPut(VisitSchedulerConfig.ENABLED_SETTING, "true");
    runner(options(), Map.of("load-web", loader())).run();
    assertThat(visitTasks()).hasSize(4);
  }

  @Test
  default void configuredWeightsDecideWhichPoliciesAsk() throws Exception {
    origins();
    // Only the policy for origins without a forge update time: a and b are never chosen.
    store()
        .settingPut(
            VisitSchedulerConfig.TYPE_SETTING_PREFIX + "web",
            "{\"enabled\":true,\"policies\":{\"origins_without_last_update\":{\"weight\":1}}}");
    runner(options(), Map.of("load-web", loader())).run();
    assertThat(visitTasks())
        .extracting(t -> t.arguments().kwargs().get("url").asText())
        .containsExactlyInAnyOrder("https://c", "https://d");
  }

  @Test
  default void aRunnerThatExitsWhenIdleFillsASmallQueueAgainOnceItDrained() throws Exception {
    origins();
    store().taskTypeUpsert(TaskType.builder("load-web").maxWorkers(2).maxQueueLength(2).build());
    store()
        .settingPut(
            VisitSchedulerConfig.TYPE_SETTING_PREFIX + "web",
            "{\"enabled\":true,\"policies\":{\"oldest_scheduled_first\":{\"weight\":1}}}");
    runner(options(), Map.of("load-web", loader())).run();
    assertThat(visitTasks()).hasSize(4);
    assertThat(stats()).hasSize(4).allMatch(s -> s.lastVisit() != null);
  }

  /**
   * Issue 15, item 5: a visit pass runs beside the runner's loop, not in it. With the pass's grab
   * held inside the database, the leader still claims, runs and ends other work; once the grab goes
   * on, the visits are enqueued and run.
   */
  @Test
  default void aVisitPassInProgressDoesNotHoldUpTheRunnersOtherWork() throws Exception {
    origins();
    CountDownLatch passHeld = new CountDownLatch(1);
    CountDownLatch letPassGoOn = new CountDownLatch(1);
    StoreProbe holdThePass =
        new StoreProbe() {
          @Override
          public void beforeStatement(String query) {
            if (query.equals("taskCountOutstanding") && passHeld.getCount() > 0) {
              passHeld.countDown();
              try {
                letPassGoOn.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
        };
    store().taskTypeCreate(TaskType.builder("other").maxWorkers(2).build());
    try (Store probed = openAnother(StoreOptions.DEFAULT.withProbe(holdThePass))) {
      RunnerOptions options = options().withExitOnIdle(false);
      Runner leader =
          new RunnerBuilder(probed, options.runsDir())
              .options(options)
              .handler("load-web", loader())
              .handler("other", ctx -> Outcome.eventful())
              .commands(
                  (t, a, d, e) -> {
                    throw new IllegalStateException("no command tasks here");
                  })
              .build();
      Future<RunnerStats> run = background().submit(leader::run);
      try {
        assertThat(passHeld.await(30, TimeUnit.SECONDS)).as("the pass began").isTrue();
        store()
            .taskCreate(
                List.of(
                    dev.drover.model.NewTask.oneshot(
                        "other", dev.drover.model.TaskArguments.of(List.of(1), null))),
                Clock.systemUTC().instant());
        await(
            () ->
                store().taskSearch(TaskQuery.all()).stream()
                    .anyMatch(t -> t.type().equals("other") && t.status() == TaskStatus.COMPLETED));
        assertThat(visitTasks()).as("the pass is still held").hasSize(0);
      } finally {
        letPassGoOn.countDown();
      }
      await(
          () ->
              !visitTasks().isEmpty()
                  && visitTasks().stream().allMatch(t -> t.status() == TaskStatus.COMPLETED));
      leader.stop(Duration.ZERO);
      run.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  default void onlyTheLeaderSchedulesVisits() throws Exception {
    RunnerOptions a = options().withExitOnIdle(false);
    RunnerOptions b = options().withExitOnIdle(false);
    store().taskTypeCreate(TaskType.builder("load-web").maxWorkers(2).build());
    Runner runnerA = runner(a, Map.of("load-web", loader()));
    Future<RunnerStats> runA = background().submit(runnerA::run);
    await(() -> !events("became_leader").isEmpty());
    Runner runnerB = runner(b, Map.of("load-web", loader()));
    Future<RunnerStats> runB = background().submit(runnerB::run);
    await(
        () ->
            !events("runner_started").stream()
                .filter(e -> e.runner().equals(b.owner()))
                .toList()
                .isEmpty());
    origins();
    // The leader's next pass comes after its no-origins wait (20 minutes): new settings start a new
    // scheduler, with a pass at once.
    store()
        .settingPut(
            VisitSchedulerConfig.TYPE_SETTING_PREFIX + "web",
            "{\"enabled\":true,\"policies\":{},\"no_origins_wait\":\"1s\"}");
    await(() -> stats().size() == 4 && stats().stream().allMatch(s -> s.lastVisit() != null));
    runnerA.stop(Duration.ZERO);
    runnerB.stop(Duration.ZERO);
    runA.get(30, TimeUnit.SECONDS);
    runB.get(30, TimeUnit.SECONDS);

    assertThat(events("became_leader")).extracting(Event::runner).containsExactly(a.owner());
    assertThat(events("visits_scheduled")).isNotEmpty().allMatch(e -> e.runner().equals(a.owner()));
    assertThat(visitTasks()).hasSize(4);
  }

  private static void await(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waited 30 s").isNegative();
      Thread.sleep(20);
    }
  }
}
