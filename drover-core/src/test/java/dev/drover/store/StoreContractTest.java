package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.model.ArchivableRun;
import dev.drover.model.ArchivePage;
import dev.drover.model.NewTask;
import dev.drover.model.RunToSchedule;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.schedule.PriorityShares;
import dev.drover.store.Store.UpsertResult;
import dev.drover.testing.Databases;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every {@link Store} must have, written once and run on each database by a subclass
 * that says where the store lives.
 */
abstract class StoreContractTest
    implements LeaseContract,
        RunnerTableContract,
        PerKeyContract,
        ListerContract,
        OriginContract,
        VisitPolicyContract,
        VisitStatsContract,
        FrontierMetricsContract,
        VisitOutcomeContract,
        TaskBatchContract,
        RunEndHookContract,
        WorkflowContract,
        OperatorContract,
        StatusCountContract,
        RunIntegrityContract,
        CronContract,
        CreateClaimContract,
        TypeVersionContract,
        StatsAwaitingContract,
        RunHistoryContract,
        ClaimFloorContract,
        UnwrittenRunContract,
        NextDueContract,
        RecordingContract,
        WaitingContract {
  static final Duration HOUR = Duration.ofHours(1);
  static final Duration DAY = Duration.ofDays(1);

  StoreLocation location;
  Store store;

  /** Where this test's stores live: new databases of the subclass's dialect, migrated and empty. */
  @RegisterExtension final Databases databases;

  StoreContractTest(Databases databases) {
    this.databases = databases;
  }

  /** A location for a new, empty store. */
  StoreLocation freshLocation() {
    return databases.fresh();
  }

  /** A plain JDBC connection to the same database, bypassing the store. */
  abstract Connection connect() throws Exception;

  @Override
  public Connection rawConnection() throws Exception {
    return connect();
  }

  @BeforeEach
  void open() throws Exception {
    location = freshLocation();
    store = Stores.open(location);
  }

  @Override
  public Store store() {
    return store;
  }

  @Override
  public Store openAnother() {
    return Stores.open(location);
  }

  @Override
  public Store openWithHook(RunEndHook hook) {
    return Stores.open(location, StoreOptions.DEFAULT, List.of(hook));
  }

  @Override
  public Store openProbed(StoreProbe probe) {
    return Stores.open(location, StoreOptions.DEFAULT.withProbe(probe));
  }

  /**
   * Every test of the contract leaves the status counts as the task rows counted one by one say: a
   * statement that moves a status without its count being kept fails the test that ran it, on
   * either database. Read directly, so that a test that closed or broke its store still checks.
   */
  @AfterEach
  void close() throws Exception {
    store.close();
    assertThat(keptInTheDatabase())
        .as("the status counts after the test")
        .isEqualTo(countedFromTheRows());
  }

  static TaskType gitType() {
    return TaskType.builder("load-git")
        .description("mirror a git repository")
        .intervals(Duration.ofDays(64), Duration.ofHours(12), Duration.ofDays(64))
        .backoffFactor(2)
        .numRetries(7)
        .retryDelay(Duration.ofHours(2))
        .build();
  }

  static NewTask recurring(String url) {
    return NewTask.recurring("load-git", TaskArguments.of(List.of(url), Map.of()));
  }

  static NewTask oneshot(String url) {
    return NewTask.oneshot("load-git", TaskArguments.of(List.of(url), Map.of()));
  }

  Task createOne(NewTask t) {
    return store.taskCreate(List.of(t), T0).get(0);
  }

  // ---- schema

  @Test
  void reopeningAMigratedStoreKeepsItsData() {
    store.taskTypeCreate(gitType());
    store.close();
    store = Stores.open(location);
    assertThat(store.taskTypeGet("load-git")).contains(gitType());
  }

  @Test
  void aMigratedSchemaIsAtTheVersionThatLetsReopeningSkipFlyway() throws Exception {
    try (Connection c = connect()) {
      assertThat(Migrations.appliedVersion(c)).hasValue(Migrations.LATEST);
    }
  }

  @Test
  void aSchemaNewerThanTheProgramIsRefused() throws Exception {
    store.close();
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.executeUpdate(
          "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
              + " checksum, installed_by, execution_time, success)"
              + " VALUES (999, '999', 'from the future', 'SQL', 'V999__future.sql', 0, 'test', 0, TRUE)");
    }
    assertThatThrownBy(() -> Stores.open(location))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("version 999, newer than this Drover understands")
        .hasMessageNotContaining("\n");
    store = Stores.open(freshLocation());
  }

  // ---- task types

  @Test
  void taskTypeCreateKeepsTheFirstDefinition() {
    assertThat(store.taskTypeCreate(gitType())).isTrue();
    TaskType second = gitType().toBuilder().description("other").backoffFactor(3).build();
    assertThat(store.taskTypeCreate(second)).isFalse();
    assertThat(store.taskTypeGet("load-git")).contains(gitType());
    assertThat(store.taskTypeGet("nope")).isEmpty();
  }

  @Test
  void taskTypeRoundTripsEveryField() {
    TaskType full =
        TaskType.builder("run-build")
            .description("a build")
            .intervals(HOUR, Duration.ofMinutes(10), DAY)
            .backoffFactor(1.5)
            .maxQueueLength(50)
            .numRetries(3)
            .retryDelay(Duration.ofMinutes(5))
            .lease(Duration.ofSeconds(30))
            .timeout(Duration.ofMinutes(20))
            .maxWorkers(2)
            .workerGroup("builders")
            .command(List.of("make", "-C", "{kwargs.dir}"))
            .workingDir("/tmp")
            .env(Map.of("LANG", "C"))
            .build();
    store.taskTypeCreate(full);
    store.taskTypeCreate(TaskType.builder("a-first").build());
    assertThat(store.taskTypeGet("run-build")).contains(full);
    assertThat(store.taskTypeList())
        .extracting(TaskType::name)
        .containsExactly("a-first", "run-build");
  }

  @Test
  void taskTypeUpsertSaysWhatItDid() {
    assertThat(store.taskTypeUpsert(gitType())).isEqualTo(UpsertResult.CREATED);
    assertThat(store.taskTypeUpsert(gitType())).isEqualTo(UpsertResult.UNCHANGED);
    TaskType changed = gitType().toBuilder().numRetries(1).build();
    assertThat(store.taskTypeUpsert(changed)).isEqualTo(UpsertResult.UPDATED);
    assertThat(store.taskTypeGet("load-git")).contains(changed);
  }

  @Test
  void workerGroupsAndSettingsAreUpserted() {
    store.workerGroupUpsert(new WorkerGroup("vcs", 4));
    store.workerGroupUpsert(new WorkerGroup("vcs", 6));
    store.settingPut("limits.total_workers", "8");
    store.settingPut("limits.total_workers", "9");
    assertThat(store.workerGroupList()).containsExactly(new WorkerGroup("vcs", 6));
    assertThat(store.settingList()).containsExactly(Map.entry("limits.total_workers", "9"));
  }

  // ---- task creation

  @Test
  void createdTasksTakeTheirTypesDefaults() {
    store.taskTypeCreate(gitType());
    Task t = createOne(recurring("https://a"));
    assertThat(t.id()).isPositive();
    assertThat(t.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(t.policy()).isEqualTo(TaskPolicy.RECURRING);
    assertThat(t.currentInterval()).isEqualTo(Duration.ofDays(64));
    assertThat(t.retriesLeft()).isEqualTo(7);
    assertThat(t.nextRun()).isEqualTo(T0);
    assertThat(t.priority()).isNull();
    assertThat(t.arguments().args().get(0).asText()).isEqualTo("https://a");
    assertThat(store.taskGet(List.of(t.id()))).containsExactly(t);
  }

  @Test
  void givenRetriesAndNextRunAreKept() {
    store.taskTypeCreate(gitType());
    Instant later = T0.plus(Duration.ofMinutes(5)).plusMillis(123);
    Task t =
        createOne(
            new NewTask(
                "load-git",
                TaskArguments.empty(),
                later,
                TaskPolicy.ONESHOT,
                TaskPriority.HIGH,
                2));
    assertThat(t.retriesLeft()).isEqualTo(2);
    assertThat(t.nextRun()).isEqualTo(later);
    assertThat(t.priority()).isEqualTo(TaskPriority.HIGH);
  }

  @Test
  void duplicatesAreCollapsedWithinAndAcrossBatches() {
    store.taskTypeCreate(gitType());
    List<Task> first =
        store.taskCreate(
            List.of(recurring("https://a"), recurring("https://a"), recurring("https://b")), T0);
    assertThat(first.get(0)).isEqualTo(first.get(1));
    assertThat(first.get(2).id()).isNotEqualTo(first.get(0).id());

    // Across batches, a recurring duplicate is found whatever its next_run.
    List<Task> second =
        store.taskCreate(List.of(recurring("https://a").withNextRun(T0.plus(DAY))), T0);
    assertThat(second).containsExactly(first.get(0));
    assertThat(store.taskSearch(TaskQuery.all())).hasSize(2);
  }

  @Test
  void keyOrderInArgumentsDoesNotMakeANewTask() {
    store.taskTypeCreate(gitType());
    TaskArguments ab = TaskArguments.parse("[1]", "{\"a\": 1, \"b\": {\"y\": 2, \"x\": 1}}");
    TaskArguments ba = TaskArguments.parse("[1]", "{\"b\": {\"x\": 1, \"y\": 2}, \"a\": 1}");
    Task t1 = createOne(NewTask.recurring("load-git", ab));
    Task t2 = createOne(NewTask.recurring("load-git", ba));
    assertThat(t2.id()).isEqualTo(t1.id());
  }

  @Test
  void oneshotTasksAtAnotherTimeOrPriorityAreNotDuplicates() {
    store.taskTypeCreate(gitType());
    Task base = createOne(oneshot("https://a").withNextRun(T0));
    Task sameTime = createOne(oneshot("https://a").withNextRun(T0));
    Task later = createOne(oneshot("https://a").withNextRun(T0.plus(HOUR)));
    Task prioritized =
        createOne(oneshot("https://a").withNextRun(T0).withPriority(TaskPriority.LOW));
    Task recurringSame = createOne(recurring("https://a"));
    assertThat(sameTime.id()).isEqualTo(base.id());
    assertThat(Set.of(base.id(), later.id(), prioritized.id(), recurringSame.id())).hasSize(4);
  }

  @Test
  void aTaskThatMovedOnIsNoLongerADuplicate() {
    store.taskTypeCreate(gitType());
    Task t = createOne(oneshot("https://a"));
    store.taskSetStatus(List.of(t.id()), TaskStatus.COMPLETED, null, false, T0);
    Task again = createOne(oneshot("https://a"));
    assertThat(again.id()).isNotEqualTo(t.id());
  }

  @Test
  void aBatchWithAnUnknownTypeWritesNothing() {
    store.taskTypeCreate(gitType());
    List<NewTask> batch =
        List.of(recurring("https://a"), NewTask.oneshot("no-such-type", TaskArguments.empty()));
    assertThatThrownBy(() -> store.taskCreate(batch, T0))
        .isInstanceOf(ValidationException.class)
        .hasMessage("type: unknown task type 'no-such-type'");
    assertThat(store.taskSearch(TaskQuery.all())).isEmpty();
  }

  @Test
  void aTaskIsCheckedAgainstItsTypeAsStoredNow() {
    store.taskTypeCreate(gitType().toBuilder().numRetries(1).build());
    assertThat(createOne(oneshot("https://a")).retriesLeft()).isEqualTo(1);
    store.taskTypeUpsert(gitType().toBuilder().numRetries(5).build());
    assertThat(createOne(oneshot("https://b")).retriesLeft()).isEqualTo(5);
    store.taskTypeUpsert(gitType().toBuilder().numRetries(1).build());
    assertThat(createOne(oneshot("https://c")).retriesLeft()).isEqualTo(1);
  }

  @Test
  void refusedSingleTasksLeaveNoTransactionOpen() {
    store.taskTypeCreate(gitType());
    // More refusals than the pool has connections: one left inside its transaction would refuse
    // to begin another, or on SQLite hold the write lock, and the writes below would fail.
    NewTask unknown = NewTask.oneshot("no-such-type", TaskArguments.empty());
    for (int i = 0; i < 20; i++) {
      assertThatThrownBy(() -> store.taskCreate(List.of(unknown), T0))
          .isInstanceOf(ValidationException.class)
          .hasMessage("type: unknown task type 'no-such-type'");
    }
    Task created = createOne(oneshot("https://a"));
    store.taskTypeCreate(TaskType.builder("checksum").build());
    assertThat(store.taskSearch(TaskQuery.all()))
        .extracting(Task::id)
        .containsExactly(created.id());
  }

  @Test
  void recurringTasksNeedATypeWithADefaultInterval() {
    store.taskTypeCreate(TaskType.builder("checksum").build());
    assertThatThrownBy(
            () ->
                store.taskCreate(List.of(NewTask.recurring("checksum", TaskArguments.empty())), T0))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("policy:");
    assertThat(store.taskCreate(List.of(NewTask.oneshot("checksum", TaskArguments.empty())), T0))
        .hasSize(1);
  }

  // ---- search, status changes

  @Test
  void searchAndsItsFilters() {
    store.taskTypeCreate(gitType());
    store.taskTypeCreate(TaskType.builder("checksum").build());
    Task a = createOne(recurring("https://a").withNextRun(T0));
    Task b =
        createOne(oneshot("https://b").withNextRun(T0.plus(HOUR)).withPriority(TaskPriority.HIGH));
    Task c =
        createOne(NewTask.oneshot("checksum", TaskArguments.empty()).withNextRun(T0.plus(DAY)));
    store.taskSetStatus(List.of(c.id()), TaskStatus.DISABLED, null, false, T0);

    assertThat(ids(query().types(List.of("load-git")))).containsExactly(a.id(), b.id());
    assertThat(ids(query().policy(TaskPolicy.ONESHOT))).containsExactly(b.id(), c.id());
    assertThat(ids(query().statuses(List.of(TaskStatus.DISABLED)))).containsExactly(c.id());
    assertThat(ids(query().priorities(List.of(TaskPriority.HIGH, TaskPriority.LOW))))
        .containsExactly(b.id());
    assertThat(ids(query().ids(List.of(a.id(), c.id())))).containsExactly(a.id(), c.id());
    assertThat(ids(query().before(T0.plus(HOUR)))).containsExactly(a.id(), b.id());
    assertThat(ids(query().after(T0.plus(HOUR)))).containsExactly(b.id(), c.id());
    assertThat(
            ids(query().after(T0.plus(Duration.ofMinutes(1))).before(T0.plus(Duration.ofHours(2)))))
        .containsExactly(b.id());
    assertThat(ids(query().limit(2))).containsExactly(a.id(), b.id());
    assertThat(ids(query().types(List.of("load-git")).policy(TaskPolicy.RECURRING)))
        .containsExactly(a.id());
    // Keyset pages: after an id, in id order, with the other filters.
    assertThat(store.taskSearch(query().limit(2).build().withAfterId(a.id())))
        .extracting(Task::id)
        .containsExactly(b.id(), c.id());
    assertThat(store.taskSearch(query().types(List.of("load-git")).build().withAfterId(a.id())))
        .extracting(Task::id)
        .containsExactly(b.id());
    assertThat(store.taskSearch(TaskQuery.all().withAfterId(c.id()))).isEmpty();
  }

  private List<Long> ids(QueryBuilder q) {
    return store.taskSearch(q.build()).stream().map(Task::id).toList();
  }

  private static QueryBuilder query() {
    return new QueryBuilder();
  }

  /** Keeps the search test readable. */
  static final class QueryBuilder {
    List<Long> ids;
    List<String> types;
    List<TaskStatus> statuses;
    List<TaskPriority> priorities;
    TaskPolicy policy;
    Instant before;
    Instant after;
    Integer limit;

    QueryBuilder ids(List<Long> v) {
      ids = v;
      return this;
    }

    QueryBuilder types(List<String> v) {
      types = v;
      return this;
    }

    QueryBuilder statuses(List<TaskStatus> v) {
      statuses = v;
      return this;
    }

    QueryBuilder priorities(List<TaskPriority> v) {
      priorities = v;
      return this;
    }

    QueryBuilder policy(TaskPolicy v) {
      policy = v;
      return this;
    }

    QueryBuilder before(Instant v) {
      before = v;
      return this;
    }

    QueryBuilder after(Instant v) {
      after = v;
      return this;
    }

    QueryBuilder limit(int v) {
      limit = v;
      return this;
    }

    TaskQuery build() {
      return new TaskQuery(ids, types, statuses, priorities, policy, before, after, limit);
    }
  }

  @Test
  void setStatusExceptCompletedLeavesFinishedAndRescheduledTasksAlone() {
    store.taskTypeCreate(gitType());
    Task due = createOne(oneshot("https://due").withNextRun(T0.minusSeconds(10)));
    Task done = createOne(oneshot("https://done").withNextRun(T0.minusSeconds(10)));
    Task future = createOne(oneshot("https://future").withNextRun(T0.plus(HOUR)));
    store.taskSetStatus(List.of(done.id()), TaskStatus.COMPLETED, null, false, T0);

    int changed =
        store.taskSetStatus(
            List.of(due.id(), done.id(), future.id()),
            TaskStatus.NEXT_RUN_SCHEDULED,
            null,
            true,
            T0);

    assertThat(changed).isEqualTo(1);
    assertThat(statusOf(due)).isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
    assertThat(statusOf(done)).isEqualTo(TaskStatus.COMPLETED);
    assertThat(statusOf(future)).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
  }

  @Test
  void setStatusCanMoveNextRun() {
    store.taskTypeCreate(gitType());
    Task t = createOne(recurring("https://a"));
    store.taskSetStatus(
        List.of(t.id()), TaskStatus.NEXT_RUN_NOT_SCHEDULED, T0.plus(DAY), false, T0);
    assertThat(store.taskGet(List.of(t.id())).get(0).nextRun()).isEqualTo(T0.plus(DAY));
  }

  @Test
  void disabledTasksAreNeverReadyUntilEnabled() {
    store.taskTypeCreate(gitType());
    Task t = createOne(oneshot("https://a").withNextRun(T0.minusSeconds(1)));
    store.taskRunSchedule(List.of(new RunToSchedule(t.id(), "b1", null, T0)));
    store.taskRunEnd("b1", TaskRunStatus.FAILED, null, T0);
    store.taskSetStatus(List.of(t.id()), TaskStatus.DISABLED, null, false, T0);
    assertThat(store.taskPeekReady("load-git", T0.plus(DAY), 10)).isEmpty();

    assertThat(store.taskEnable(List.of(t.id()), T0.plus(HOUR))).isEqualTo(1);
    Task enabled = store.taskGet(List.of(t.id())).get(0);
    assertThat(enabled.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertThat(enabled.nextRun()).isEqualTo(T0.plus(HOUR));
    assertThat(enabled.retriesLeft()).isEqualTo(7);
    assertThat(store.taskEnable(List.of(t.id()), T0))
        .as("only disabled tasks are enabled")
        .isZero();
  }

  private TaskStatus statusOf(Task t) {
    return store.taskGet(List.of(t.id())).get(0).status();
  }

  // ---- peek and grab

  @Test
  void peekReturnsDueTasksWithoutPriorityOldestFirstAndChangesNothing() {
    store.taskTypeCreate(gitType());
    Task late = createOne(recurring("https://late").withNextRun(T0.minusSeconds(10)));
    Task early = createOne(recurring("https://early").withNextRun(T0.minusSeconds(20)));
    createOne(recurring("https://future").withNextRun(T0.plusSeconds(1)));
    createOne(
        recurring("https://prio").withNextRun(T0.minusSeconds(30)).withPriority(TaskPriority.HIGH));

    assertThat(store.taskPeekReady("load-git", T0, 10))
        .extracting(Task::id)
        .containsExactly(early.id(), late.id());
    assertThat(store.taskPeekReady("load-git", T0, 1))
        .extracting(Task::id)
        .containsExactly(early.id());
    assertThat(store.taskPeekReady("other", T0, 10)).isEmpty();
    assertThat(store.taskPeekReady("load-git", T0, 10)).hasSize(2);
  }

  @Test
  void aTaskIsReadyExactlyAtItsNextRun() {
    store.taskTypeCreate(gitType());
    createOne(recurring("https://a").withNextRun(T0));
    assertThat(store.taskPeekReady("load-git", T0.minusMillis(1), 10)).isEmpty();
    assertThat(store.taskPeekReady("load-git", T0, 10)).hasSize(1);
  }

  @Test
  void grabMarksTasksScheduledSoTheyAreNotGrabbedAgain() {
    store.taskTypeCreate(gitType());
    store.taskCreate(
        IntStream.range(0, 5)
            .mapToObj(i -> recurring("https://" + i).withNextRun(T0.minusSeconds(i)))
            .toList(),
        T0);
    List<Task> first = store.taskGrabReady("load-git", T0, 3, 0, PriorityShares.DEFAULT);
    assertThat(first).hasSize(3).allMatch(t -> t.status() == TaskStatus.NEXT_RUN_SCHEDULED);
    assertThat(first).extracting(Task::nextRun).isSorted();
    assertThat(first.get(0).arguments().args().get(0).asText()).isEqualTo("https://4");
    List<Task> second = store.taskGrabReady("load-git", T0, 3, 0, PriorityShares.DEFAULT);
    assertThat(second).hasSize(2);
    assertThat(store.taskGrabReady("load-git", T0, 3, 0, PriorityShares.DEFAULT)).isEmpty();
  }

  @Test
  void priorityGrabSplitsTheBudgetByShares() {
    store.taskTypeCreate(gitType());
    for (TaskPriority p : TaskPriority.values()) {
      store.taskCreate(
          IntStream.range(0, 10)
              .mapToObj(i -> oneshot(p + "-" + i).withNextRun(T0.minusSeconds(i)).withPriority(p))
              .toList(),
          T0);
    }
    List<Task> grabbed = store.taskGrabReady("load-git", T0, 0, 10, PriorityShares.DEFAULT);
    assertThat(grabbed)
        .extracting(Task::priority)
        .containsExactly(
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.HIGH,
            TaskPriority.NORMAL,
            TaskPriority.NORMAL,
            TaskPriority.NORMAL,
            TaskPriority.LOW,
            TaskPriority.LOW);
  }

  @Test
  void anUnusedPriorityShareCascadesDownAndThenToTasksWithoutPriority() {
    store.taskTypeCreate(gitType());
    store.taskCreate(
        List.of(
            oneshot("n1").withPriority(TaskPriority.NORMAL),
            oneshot("l1").withPriority(TaskPriority.LOW),
            oneshot("l2").withPriority(TaskPriority.LOW),
            oneshot("l3").withPriority(TaskPriority.LOW),
            oneshot("l4").withPriority(TaskPriority.LOW)),
        T0);
    store.taskCreate(IntStream.range(0, 10).mapToObj(i -> oneshot("plain-" + i)).toList(), T0);

    List<Task> peeked = store.taskPeekReadyPriority("load-git", T0, 10, PriorityShares.DEFAULT);
    assertThat(peeked)
        .extracting(Task::priority)
        .containsExactly(
            TaskPriority.NORMAL,
            TaskPriority.LOW,
            TaskPriority.LOW,
            TaskPriority.LOW,
            TaskPriority.LOW);

    // 10 priority slots: high finds none, normal one, low all four; the 5 unused go to plain tasks.
    List<Task> grabbed = store.taskGrabReady("load-git", T0, 2, 10, PriorityShares.DEFAULT);
    assertThat(grabbed.stream().filter(t -> t.priority() != null)).hasSize(5);
    assertThat(grabbed.stream().filter(t -> t.priority() == null)).hasSize(7);
  }

  @Test
  void fourConcurrentGrabbersGrabEachOfTenThousandTasksExactlyOnce() throws Exception {
    store.taskTypeCreate(gitType());
    int total = 10_000;
    List<NewTask> batch = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      batch.add(oneshot("https://example.org/" + i).withNextRun(T0.minusMillis(i % 997)));
    }
    store.taskCreate(batch, T0);

    ConcurrentLinkedQueue<Long> grabbed = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> grabbers = new ArrayList<>();
      for (int g = 0; g < 4; g++) {
        Callable<Integer> grabber =
            () -> {
              start.await();
              int batches = 0;
              List<Task> got;
              while (!(got = store.taskGrabReady("load-git", T0, 50, 0, PriorityShares.DEFAULT))
                  .isEmpty()) {
                got.forEach(t -> grabbed.add(t.id()));
                batches++;
              }
              return batches;
            };
        grabbers.add(pool.submit(grabber));
      }
      start.countDown();
      int batches = 0;
      for (Future<Integer> f : grabbers) {
        batches += f.get();
      }
      assertThat(batches).isGreaterThanOrEqualTo(total / 50);
    } finally {
      pool.shutdownNow();
    }
    assertThat(grabbed).hasSize(total);
    assertThat(new HashSet<>(grabbed)).hasSize(total);
    assertThat(store.taskPeekReady("load-git", T0, total)).isEmpty();
    assertThat(store.taskCountByTypeAndStatus())
        .containsExactly(new StatusCount("load-git", TaskStatus.NEXT_RUN_SCHEDULED, total));
  }

  // ---- runs

  @Test
  void runsStartAndEndWithMergedMetadata() {
    store.taskTypeCreate(gitType());
    Task t = createOne(oneshot("https://a"));
    TaskRun scheduled =
        store
            .taskRunSchedule(
                List.of(new RunToSchedule(t.id(), "b-1", meta("{\"queue\": \"q\"}"), T0)))
            .get(0);
    assertThat(scheduled.status()).isEqualTo(TaskRunStatus.SCHEDULED);
    assertThat(scheduled.scheduled()).isEqualTo(T0);

    TaskRun started =
        store.taskRunStart("b-1", meta("{\"worker\": \"w1\"}"), T0.plusSeconds(1)).orElseThrow();
    assertThat(started.status()).isEqualTo(TaskRunStatus.STARTED);
    assertThat(started.started()).isEqualTo(T0.plusSeconds(1));
    assertThat(started.metadata()).isEqualTo(meta("{\"queue\": \"q\", \"worker\": \"w1\"}"));

    TaskRun ended =
        store
            .taskRunEnd(
                "b-1",
                TaskRunStatus.EVENTFUL,
                meta("{\"worker\": \"w2\", \"n\": 3}"),
                T0.plusSeconds(5))
            .orElseThrow();
    assertThat(ended.status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(ended.ended()).isEqualTo(T0.plusSeconds(5));
    assertThat(ended.metadata())
        .isEqualTo(meta("{\"queue\": \"q\", \"worker\": \"w2\", \"n\": 3}"));
    assertThat(store.taskRunGet("b-1")).contains(ended);
    assertThat(statusOf(t)).isEqualTo(TaskStatus.COMPLETED);
  }

  @Test
  void unknownBackendIdsFindNoRun() {
    assertThat(store.taskRunStart("nope", null, T0)).isEmpty();
    assertThat(store.taskRunEnd("nope", TaskRunStatus.FAILED, null, T0)).isEmpty();
    assertThatThrownBy(() -> store.taskRunEnd("nope", TaskRunStatus.STARTED, null, T0))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("status:");
  }

  @Test
  void endingARunReschedulesItsTaskOnTheDatabase() {
    store.taskTypeCreate(gitType());
    Task t = createOne(recurring("https://a"));
    Instant end = T0.plusSeconds(30);

    endRun(t, "r1", TaskRunStatus.EVENTFUL, end);
    Task afterEventful = store.taskGet(List.of(t.id())).get(0);
    assertThat(afterEventful.currentInterval()).isEqualTo(Duration.ofDays(32));
    assertThat(afterEventful.nextRun()).isEqualTo(end.plus(Duration.ofDays(32)));
    assertThat(afterEventful.status()).isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);

    endRun(t, "r2", TaskRunStatus.FAILED, end);
    Task afterFailed = store.taskGet(List.of(t.id())).get(0);
    assertThat(afterFailed.nextRun()).isEqualTo(end.plus(Duration.ofHours(2)));
    assertThat(afterFailed.retriesLeft()).isEqualTo(6);
    assertThat(afterFailed.currentInterval()).isEqualTo(Duration.ofDays(32));

    endRun(t, "r3", TaskRunStatus.UNEVENTFUL, end);
    Task afterUneventful = store.taskGet(List.of(t.id())).get(0);
    assertThat(afterUneventful.currentInterval()).isEqualTo(Duration.ofDays(64));
    assertThat(afterUneventful.retriesLeft()).isEqualTo(7);

    endRun(t, "r4", TaskRunStatus.PERMFAILED, end);
    assertThat(statusOf(t)).isEqualTo(TaskStatus.DISABLED);
    assertThat(store.taskRunList(List.of(t.id()), null, 10))
        .extracting(TaskRun::backendId)
        .containsExactly("r4", "r3", "r2", "r1");
    assertThat(store.taskRunList(List.of(), TaskRunStatus.FAILED, 10))
        .extracting(TaskRun::backendId)
        .containsExactly("r2");
  }

  @Test
  void aLostRunIsChargedAsAFailedAttempt() {
    store.taskTypeCreate(gitType().toBuilder().numRetries(0).build());
    Task t = createOne(oneshot("https://a"));
    endRun(t, "r1", TaskRunStatus.LOST, T0);
    assertThat(statusOf(t)).isEqualTo(TaskStatus.DISABLED);
  }

  private void endRun(Task t, String backendId, TaskRunStatus status, Instant at) {
    store.taskRunSchedule(List.of(new RunToSchedule(t.id(), backendId, null, at.minusSeconds(5))));
    store.taskRunStart(backendId, null, at.minusSeconds(4));
    store.taskRunEnd(backendId, status, null, at);
  }

  private static ObjectNode meta(String json) {
    return Json.parseObject("metadata", json);
  }

  @Test
  void statusCountsGroupByTypeAndStatus() {
    store.taskTypeCreate(gitType());
    store.taskTypeCreate(TaskType.builder("checksum").build());
    Task a = createOne(recurring("https://a"));
    createOne(recurring("https://b"));
    createOne(NewTask.oneshot("checksum", TaskArguments.empty()));
    store.taskSetStatus(List.of(a.id()), TaskStatus.DISABLED, null, false, T0);
    assertThat(store.taskCountByTypeAndStatus())
        .containsExactly(
            new StatusCount("checksum", TaskStatus.NEXT_RUN_NOT_SCHEDULED, 1),
            new StatusCount("load-git", TaskStatus.DISABLED, 1),
            new StatusCount("load-git", TaskStatus.NEXT_RUN_NOT_SCHEDULED, 1));
  }

  @Test
  void dueCountsCountWaitingTasksWhoseNextRunHasPassed() {
    store.taskTypeCreate(gitType());
    store.taskTypeCreate(TaskType.builder("checksum").build());
    createOne(recurring("https://a").withNextRun(T0.minusSeconds(60)));
    createOne(recurring("https://b").withNextRun(T0));
    createOne(recurring("https://c").withNextRun(T0.plusSeconds(1)));
    Task disabled = createOne(recurring("https://d").withNextRun(T0.minusSeconds(60)));
    store.taskSetStatus(List.of(disabled.id()), TaskStatus.DISABLED, null, false, T0);
    createOne(NewTask.oneshot("checksum", TaskArguments.empty()).withNextRun(T0.plusSeconds(60)));

    assertThat(store.taskCountDueByType(T0)).containsExactly(Map.entry("load-git", 2L));
    assertThat(store.taskCountDueByType(T0.plusSeconds(60)))
        .containsExactly(Map.entry("checksum", 1L), Map.entry("load-git", 3L));
  }

  // ---- archival

  /** 7 finished tasks with 1..3 runs each (16 runs), plus tasks that must not be archived. */
  private List<Long> archivableFixture() {
    store.taskTypeCreate(gitType());
    List<Long> runIds = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      Task t = createOne(oneshot("https://done/" + i));
      for (int r = 0; r <= i % 3; r++) {
        String backend = "done-" + i + "-" + r;
        runIds.add(
            store
                .taskRunSchedule(
                    List.of(new RunToSchedule(t.id(), backend, null, T0.plusSeconds(i))))
                .get(0)
                .id());
        store.taskRunStart(backend, null, T0.plusSeconds(i));
        store.taskRunEnd(
            backend,
            r < i % 3 ? TaskRunStatus.FAILED : TaskRunStatus.EVENTFUL,
            null,
            T0.plusSeconds(i + 1));
      }
    }
    // A recurring task still active, a one-shot task still pending, and a finished run out of the
    // window.
    endRun(
        createOne(recurring("https://active")),
        "active",
        TaskRunStatus.EVENTFUL,
        T0.plusSeconds(2));
    Task pending = createOne(oneshot("https://pending"));
    store.taskRunSchedule(List.of(new RunToSchedule(pending.id(), "pending", null, T0)));
    endRun(createOne(oneshot("https://old")), "old", TaskRunStatus.EVENTFUL, T0.minus(DAY));
    return runIds;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5, 16, 100})
  void archivePagesNeitherRepeatNorSkipRows(int pageSize) {
    List<Long> expected = archivableFixture();
    List<Long> seen = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      ArchivePage page = store.taskRunArchivable(T0, T0.plus(HOUR), pageSize, token);
      assertThat(page.runs().size()).isLessThanOrEqualTo(pageSize);
      page.runs().forEach(r -> seen.add(r.taskRunId()));
      token = page.nextPageToken();
      pages++;
    } while (token != null);
    assertThat(seen).containsExactlyElementsOf(expected);
    assertThat(pages).isEqualTo((expected.size() + pageSize - 1) / pageSize);
  }

  @Test
  void archivableRowsCarryTheTaskAndTheRun() {
    archivableFixture();
    ArchivableRun first = store.taskRunArchivable(T0, T0.plus(HOUR), 1, null).runs().get(0);
    assertThat(first.taskPolicy()).isEqualTo(TaskPolicy.ONESHOT);
    assertThat(first.taskStatus()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(first.type()).isEqualTo("load-git");
    assertThat(first.arguments().args().get(0).asText()).isEqualTo("https://done/0");
    assertThat(first.backendId()).isEqualTo("done-0-0");
    assertThat(first.runStatus()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(first.started()).isEqualTo(T0);
    assertThat(first.ended()).isEqualTo(T0.plusSeconds(1));
  }

  @Test
  void archiveWindowIsHalfOpen() {
    archivableFixture();
    assertThat(store.taskRunArchivable(T0.plusSeconds(1), T0.plusSeconds(2), 100, null).runs())
        .extracting(ArchivableRun::backendId)
        .containsExactly("done-1-0", "done-1-1");
  }

  @Test
  void aBadPageTokenIsRefused() {
    assertThatThrownBy(() -> store.taskRunArchivable(T0, T0.plus(HOUR), 10, "garbage"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("page_token:");
  }

  @Test
  void archiveDeleteRemovesRunsThenTasksLeftWithoutRuns() {
    archivableFixture();
    List<ArchivableRun> all = store.taskRunArchivable(T0, T0.plus(HOUR), 100, null).runs();
    // Delete every run of the first two tasks, but only one run of the third (which has three).
    List<Long> taskIds = all.stream().map(ArchivableRun::taskId).distinct().limit(3).toList();
    List<Long> runIds =
        new ArrayList<>(
            all.stream()
                .filter(r -> taskIds.subList(0, 2).contains(r.taskId()))
                .map(ArchivableRun::taskRunId)
                .toList());
    runIds.add(
        all.stream()
            .filter(r -> r.taskId() == taskIds.get(2))
            .findFirst()
            .orElseThrow()
            .taskRunId());

    Store.ArchiveDeletion deleted = store.archiveDelete(taskIds, runIds);

    assertThat(deleted).isEqualTo(new Store.ArchiveDeletion(runIds.size(), 2));
    assertThat(store.taskGet(taskIds)).extracting(Task::id).containsExactly(taskIds.get(2));
    assertThat(store.taskRunList(List.of(taskIds.get(2)), null, 10)).hasSize(2);
    assertThat(store.archiveDelete(List.of(), List.of()))
        .isEqualTo(new Store.ArchiveDeletion(0, 0));
  }
}
