package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.Json;
import dev.drover.model.NewTask;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.FaultProbe;
import dev.drover.testing.Passes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The status counts the database keeps as tasks change (task_count, kept by triggers) always equal
 * a count of the task rows themselves: after every kind of write, before and after the leader's
 * fold, and while threads race writes and folds. Mixed into {@link StoreContractTest}, so it runs
 * on every database.
 */
interface StatusCountContract {
  Store store();

  /** A connection of its own to the store's database, for counting the rows directly. */
  Connection rawConnection() throws Exception;

  /** A store on the same database whose statements and commits {@code probe} sees. */
  Store openProbed(StoreProbe probe);

  private static NewTask task(String type, int i) {
    return NewTask.oneshot(type, TaskArguments.of(List.of(i), null)).withNextRun(LeaseContract.T0);
  }

  /** What the counts must say: the task rows counted one by one. */
  default List<StatusCount> countedFromTheRows() throws Exception {
    return statusCounts(
        "SELECT type, status, count(*) FROM task GROUP BY type, status ORDER BY type, status");
  }

  /** The counts as task_count holds them, read directly rather than through the store. */
  default List<StatusCount> keptInTheDatabase() throws Exception {
    return statusCounts(
        "SELECT type, status, sum(n) FROM task_count GROUP BY type, status HAVING sum(n) <> 0"
            + " ORDER BY type, status");
  }

  private List<StatusCount> statusCounts(String query) throws Exception {
    List<StatusCount> out = new ArrayList<>();
    try (Connection c = rawConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(query)) {
      while (rs.next()) {
        out.add(
            new StatusCount(
                rs.getString(1), TaskStatus.parse("status", rs.getString(2)), rs.getLong(3)));
      }
    }
    return out;
  }

  private static TaskStatus statusOf(Store s, long id) {
    return s.taskGet(List.of(id)).get(0).status();
  }

  private void assertCountsMatchRows(String after) throws Exception {
    List<StatusCount> expected = countedFromTheRows();
    assertThat(store().taskCountByTypeAndStatus()).as("after " + after).isEqualTo(expected);
    store().taskCountCompact();
    assertThat(store().taskCountByTypeAndStatus())
        .as("after " + after + ", folded")
        .isEqualTo(expected);
  }

  @Test
  default void statusCountsFollowEveryKindOfWrite() throws Exception {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("a").build());
    s.taskTypeCreate(TaskType.builder("b").build());
    TaskType a = s.taskTypeGet("a").orElseThrow();
    Instant t0 = LeaseContract.T0;
    List<Task> as = s.taskCreate(IntStream.range(0, 10).mapToObj(i -> task("a", i)).toList(), t0);
    s.taskCreate(IntStream.range(0, 4).mapToObj(i -> task("b", i)).toList(), t0);
    assertCountsMatchRows("create");

    List<Claim> claims = Passes.claimStarted(s, a, "r", t0, LeaseContract.LEASE, 4);
    assertCountsMatchRows("claim");

    Claim ok = claims.get(0);
    Claim failed = claims.get(1);
    Claim parent = claims.get(2);
    Passes.complete(
        s,
        "r",
        List.of(
            new Completion(ok.lease(), TaskRunStatus.EVENTFUL, Json.object(), t0, ok, null),
            new Completion(failed.lease(), TaskRunStatus.FAILED, Json.object(), t0, failed, null),
            new Completion(
                parent.lease(),
                TaskRunStatus.EVENTFUL,
                Json.object(),
                t0,
                parent,
                List.of(task("b", 100), task("b", 101)))),
        t0);
    assertCountsMatchRows("completion, failure and spawn");

    s.taskCancel(List.of(claims.get(3).lease().taskId()), false, t0);
    assertCountsMatchRows("cancel");
    s.taskPause(List.of(as.get(5).id(), as.get(6).id()), false);
    assertCountsMatchRows("pause");
    s.taskResume(List.of(as.get(5).id()), false);
    assertCountsMatchRows("resume");
    s.taskSetStatus(List.of(as.get(7).id()), TaskStatus.DISABLED, null, false, t0);
    assertCountsMatchRows("disable");
    s.taskRetry(List.of(as.get(7).id()), t0);
    assertCountsMatchRows("retry");
    s.taskDelete(List.of(parent.lease().taskId()), true, t0);
    assertCountsMatchRows("delete of a tree");
    s.taskDelete(List.of(as.get(8).id(), as.get(9).id()), false, t0);
    assertCountsMatchRows("delete");

    // A claim of a per-key type takes its tasks by another statement; a release and a rescue give
    // claimed tasks back.
    s.taskTypeCreate(TaskType.builder("k").concurrencyKey("owner").maxPerKey(1).build());
    TaskType k = s.taskTypeGet("k").orElseThrow();
    s.taskCreate(
        IntStream.range(0, 6)
            .mapToObj(
                i ->
                    NewTask.oneshot(
                            "k",
                            TaskArguments.of(List.of(i), java.util.Map.of("owner", "o" + i % 3)))
                        .withNextRun(t0))
            .toList(),
        t0);
    List<Claim> perKey = Passes.claimStarted(s, k, "r", t0, LeaseContract.LEASE, 6);
    assertThat(perKey).hasSize(3);
    assertCountsMatchRows("per-key claim");
    s.taskRelease("r", List.of(perKey.get(0).lease()), t0);
    assertCountsMatchRows("release");
    s.taskRescueOwner("r", t0, true);
    assertCountsMatchRows("rescue of an owner's tasks");
  }

  /**
   * A task an operator sets back to waiting while a runner holds it keeps that runner's name until
   * it is claimed again. Its next claim still counts it once, and so does a cancel of leased and
   * waiting tasks together: the claims and the statements that take an owner away count their own
   * changes, and the triggers every other (PostgreSQL's V026, SQLite's V025 and V026).
   */
  @Test
  default void statusCountsHoldForLeasedTasksAnOperatorChanged() throws Exception {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("a").build());
    TaskType a = s.taskTypeGet("a").orElseThrow();
    Instant t0 = LeaseContract.T0;
    List<Task> tasks = s.taskCreate(IntStream.range(0, 4).mapToObj(i -> task("a", i)).toList(), t0);
    long held = Passes.claimStarted(s, a, "r", t0, LeaseContract.LEASE, 2).get(0).lease().taskId();
    s.taskSetStatus(List.of(held), TaskStatus.NEXT_RUN_NOT_SCHEDULED, t0, false, t0);
    assertCountsMatchRows("a leased task set back to waiting");
    try (Connection c = rawConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT owner FROM task WHERE id = " + held)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).as("the waiting task keeps its old owner").isEqualTo("r");
    }
    List<Claim> again = Passes.claimStarted(s, a, "r2", t0, LeaseContract.LEASE, 4);
    assertThat(again).extracting(cl -> cl.lease().taskId()).contains(held);
    assertCountsMatchRows("its claim by another runner");
    s.taskCancel(tasks.stream().map(Task::id).toList(), false, t0);
    assertCountsMatchRows("a cancel of leased and waiting tasks");
  }

  /**
   * Every way a lease ends counts the task's move once, though neither database's row trigger
   * counts it (PostgreSQL's V026, SQLite's V027) and each way counts it by another statement: a
   * completion written as claimed, one written after a heartbeat moved the lease (the task read
   * again first), each of a task paused while it ran, a release, a rescue of claims no worker began
   * and of started runs, and a cancel of leased and waiting tasks.
   */
  @Test
  default void statusCountsHoldForEveryWayALeaseEnds() throws Exception {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("a").numRetries(1).build());
    TaskType a = s.taskTypeGet("a").orElseThrow();
    Instant t0 = LeaseContract.T0;
    List<Task> tasks =
        s.taskCreate(IntStream.range(0, 12).mapToObj(i -> task("a", i)).toList(), t0);
    List<Claim> claims = Passes.claimStarted(s, a, "r", t0, LeaseContract.LEASE, 8);
    List<Long> ids = claims.stream().map(c -> c.lease().taskId()).toList();
    assertThat(s.taskPause(ids.subList(0, 2), false)).isEqualTo(2);
    assertCountsMatchRows("a pause of running tasks");

    s.taskHeartbeat(
        "r",
        List.of(claims.get(1).lease(), claims.get(3).lease()),
        t0.plus(LeaseContract.LEASE.multipliedBy(2)));
    List<Completion> ends = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Claim c = claims.get(i);
      // A failure with a retry left waits for its next run, or is paused if paused meanwhile.
      TaskRunStatus status = i < 3 ? TaskRunStatus.FAILED : TaskRunStatus.EVENTFUL;
      ends.add(new Completion(c.lease(), status, Json.object(), t0, c, null));
    }
    RecordingContract.Steps steps = new RecordingContract.Steps();
    try (Store seeing = openProbed(steps)) {
      assertThat(Passes.complete(seeing, "r", ends, t0)).isEmpty();
    }
    assertThat(steps.names)
        .as("the tasks a heartbeat moved are read again and updated one by one")
        .contains("taskUpdateAfterRunAsClaimed", "taskUpdateAfterRun");
    assertThat(statusOf(s, ids.get(0)))
        .as("paused while it ran, ended as claimed")
        .isEqualTo(TaskStatus.PAUSED);
    assertThat(statusOf(s, ids.get(1)))
        .as("paused while it ran, ended after a heartbeat")
        .isEqualTo(TaskStatus.PAUSED);
    assertThat(statusOf(s, ids.get(2)))
        .as("failed, with a retry left")
        .isEqualTo(TaskStatus.NEXT_RUN_NOT_SCHEDULED);
    assertCountsMatchRows("completions as claimed and after a heartbeat");

    assertThat(s.taskRelease("r", List.of(claims.get(4).lease()), t0)).isEqualTo(1);
    assertCountsMatchRows("a release");
    List<Claim> unbegun = Passes.claim(s, a, "r2", t0, LeaseContract.LEASE, 3);
    assertThat(unbegun).hasSize(3);
    assertThat(s.taskRescueOwner("r2", t0, true)).hasSize(3);
    assertCountsMatchRows("a rescue of claims no worker began");
    s.taskCancel(List.of(ids.get(5), tasks.get(11).id()), false, t0);
    assertCountsMatchRows("a cancel of a leased and a waiting task");
    assertThat(s.taskRescueOwner("r", t0, true)).containsExactlyInAnyOrder(ids.get(6), ids.get(7));
    assertCountsMatchRows("a rescue of started runs");
  }

  /**
   * A cancel, a release and a rescue of started runs, each made to fail at one step of its
   * transaction (the read of its leased tasks on SQLite, its update, the counts the store adds, the
   * commit), change nothing: no task and no count moves, and the same call then succeeds with the
   * counts right. Each step is one that at least one of the three takes on this database.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "taskLeasedAmong",
        "taskCancel",
        "taskRelease",
        "taskUpdateAfterRun",
        "taskCountMoved",
        FaultProbe.COMMIT
      })
  default void aLeaseEndThatFailsAtAnyStepChangesNothing(String step) throws Exception {
    // PostgreSQL's statements read their leased tasks and count their moves themselves (V026).
    assumeTrue(
        store().dialect() == Dialect.SQLITE
            || !Set.of("taskLeasedAmong", "taskCountMoved").contains(step),
        step + " is SQLite's step");
    Store s = store();
    s.taskTypeCreate(TaskType.builder("a").numRetries(1).build());
    TaskType a = s.taskTypeGet("a").orElseThrow();
    Instant t0 = LeaseContract.T0;
    List<Task> tasks = s.taskCreate(IntStream.range(0, 6).mapToObj(i -> task("a", i)).toList(), t0);
    List<Claim> claims = Passes.claimStarted(s, a, "r", t0, LeaseContract.LEASE, 4);
    List<java.util.function.Consumer<Store>> ends =
        List.of(
            probed ->
                probed.taskCancel(
                    List.of(claims.get(0).lease().taskId(), tasks.get(5).id()), false, t0),
            probed -> probed.taskRelease("r", List.of(claims.get(1).lease()), t0),
            probed -> probed.taskRescueOwner("r", t0, true));
    Set<String> transaction =
        Set.of("taskLeasedAmong", "taskCancel", "taskRelease", "taskUpdateAfterRun");
    int fired = 0;
    for (var end : ends) {
      List<String> before = taskRows();
      List<StatusCount> countsBefore = keptInTheDatabase();
      FaultProbe probe = new FaultProbe(step, Set.of(1), transaction);
      try (Store probed = openProbed(probe)) {
        try {
          end.accept(probed);
        } catch (FaultProbe.InjectedFault expected) {
          assertThat(taskRows()).as("the tasks after a fault at " + step).isEqualTo(before);
          assertThat(keptInTheDatabase())
              .as("the counts after a fault at " + step)
              .isEqualTo(countsBefore);
          end.accept(probed);
        }
      }
      fired += probe.fired();
      assertCountsMatchRows("a lease end, after a fault at " + step);
    }
    assertThat(fired).as(step + " failed in at least one of the ends").isPositive();
  }

  /** Every task's status, owner, retries and attempt, in id order. */
  private List<String> taskRows() throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = rawConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT id, status, owner, retries_left, attempt FROM task ORDER BY id")) {
      while (rs.next()) {
        out.add(
            rs.getLong(1)
                + " "
                + rs.getString(2)
                + " "
                + rs.getString(3)
                + " "
                + rs.getInt(4)
                + " "
                + rs.getInt(5));
      }
    }
    return out;
  }

  /**
   * Threads create, claim and complete tasks at once while another folds the counts over and over:
   * no change is lost or counted twice, however the statements interleave.
   */
  @Test
  default void statusCountsHoldWhileWritesAndFoldsRace() throws Exception {
    Store s = store();
    s.taskTypeCreate(TaskType.builder("a").build());
    TaskType a = s.taskTypeGet("a").orElseThrow();
    Instant t0 = LeaseContract.T0;
    int writers = 4;
    int rounds = 15;
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean writing = new AtomicBoolean(true);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int r = 0; r < rounds; r++) {
                    int base = (writer * rounds + r) * 10;
                    s.taskCreate(
                        IntStream.range(base, base + 10).mapToObj(i -> task("a", i)).toList(), t0);
                    String owner = "r" + writer;
                    List<Claim> claims =
                        Passes.claimStarted(s, a, owner, t0, LeaseContract.LEASE, 6);
                    List<Completion> ends = new ArrayList<>();
                    for (Claim c : claims.subList(0, claims.size() / 2)) {
                      ends.add(
                          new Completion(
                              c.lease(), TaskRunStatus.EVENTFUL, Json.object(), t0, c, null));
                    }
                    Passes.complete(s, owner, ends, t0);
                  }
                  return null;
                }));
      }
      Future<?> folds =
          pool.submit(
              () -> {
                start.await();
                while (writing.get()) {
                  s.taskCountCompact();
                }
                return null;
              });
      start.countDown();
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
      writing.set(false);
      folds.get(30, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    List<StatusCount> expected = countedFromTheRows();
    assertThat(expected.stream().mapToLong(StatusCount::count).sum())
        .isEqualTo((long) writers * rounds * 10);
    assertCountsMatchRows("racing writes and folds");
  }
}
