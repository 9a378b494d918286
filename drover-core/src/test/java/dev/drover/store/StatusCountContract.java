package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Json;
import dev.drover.model.NewTask;
import dev.drover.model.StatusCount;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

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
