package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A pass claims tasks by id, and writes their starts and outcomes as arrays joined to the leased
 * tasks. Each of these statements finds every task by its primary key, and each write reads its
 * arrays once, whatever PostgreSQL believes about the task table. Two beliefs matter for the
 * writes:
 *
 * <ul>
 *   <li>no statistics at all, as on a new store;
 *   <li>statistics gathered while every task waited, as on a store analyzed between bursts.
 * </ul>
 *
 * <p>Either way the planner puts the leased tasks of a runner it has never seen at one row, and the
 * index of leased tasks at nearly none. Until 2026-11-27 it could then scan the tasks and read the
 * arrays again for each leased one (1,000 leased tasks and a batch of 500 made 500,000
 * comparisons), or search the index of leased tasks once per task of the batch: either way a pass's
 * write took 200–800 ms. Which plan it took was a close call, so each case also runs with hash and
 * merge joins turned off: a nested loop must then begin from the arrays and probe the primary key.
 * EXPLAIN ANALYZE, in a transaction rolled back, on 20,000 tasks with 1,000 of them leased.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresPassWritePlanTest {
  private static final String OWNER = "runner-1";
  private static final Instant LEASE_UNTIL = Instant.parse("2026-06-01T12:05:00Z");
  private static final int LEASED = 1000;
  private static final int BATCH = 500;

  /** Each case's statement is rolled back, so these three stores serve every case. */
  private PlanDatabase neverAnalyzed;

  private PlanDatabase analyzedWhileWaiting;

  private PlanDatabase burstAfterIdle;

  @BeforeAll
  void fill() throws Exception {
    neverAnalyzed = leasedTasks(false);
    analyzedWhileWaiting = leasedTasks(true);
    burstAfterIdle = burstAfterIdle();
  }

  @AfterAll
  void close() {
    neverAnalyzed.close();
    analyzedWhileWaiting.close();
    burstAfterIdle.close();
  }

  private PlanDatabase db(boolean analyzed) {
    return analyzed ? analyzedWhileWaiting : neverAnalyzed;
  }

  /** Fills a new database; analyzed (or not) while every task waits, then 1,000 leased. */
  private static PlanDatabase leasedTasks(boolean analyzedWhileWaiting) throws Exception {
    PlanDatabase db = new PlanDatabase("work");
    db.execute(
        """
        INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy)
        SELECT 'work', jsonb_build_array(i), md5(i::text), timestamptz '2026-06-01 11:00',
               'next_run_not_scheduled', 'oneshot'
        FROM generate_series(1, 20000) AS i
        """);
    if (analyzedWhileWaiting) {
      db.execute("ANALYZE task");
    }
    db.execute(
        """
        UPDATE task
        SET status = 'next_run_scheduled', owner = '%s', attempt = 1,
            next_run = timestamptz '%s'
        WHERE id IN (SELECT id FROM task ORDER BY id LIMIT %d)
        """
            .formatted(OWNER, LEASE_UNTIL, LEASED));
    return db;
  }

  /**
   * 20,000 tasks done and analyzed (a store idle between bursts), then a burst of 20,000 waiting,
   * due one second apart, before the next analyze.
   */
  private static PlanDatabase burstAfterIdle() throws Exception {
    PlanDatabase db = new PlanDatabase("work");
    db.execute(
        """
        INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy)
        SELECT 'work', jsonb_build_array(i), md5(i::text), timestamptz '2026-06-01 00:00Z',
               'completed', 'oneshot'
        FROM generate_series(1, 20000) AS i
        """,
        "VACUUM ANALYZE task",
        """
        INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy)
        SELECT 'work', jsonb_build_array(-i), md5((-i)::text),
               timestamptz '2026-06-01 00:00Z' + i * interval '1 second',
               'next_run_not_scheduled', 'oneshot'
        FROM generate_series(1, 20000) AS i
        """);
    return db;
  }

  /**
   * The ids of a batch: every other task from the lowest id {@code firstQuery} returns, so that the
   * batch is not a prefix.
   */
  private static List<Long> batch(PlanDatabase db, String firstQuery) {
    long first = db.count(firstQuery);
    return LongStream.range(0, BATCH).mapToObj(i -> first + 2 * i).toList();
  }

  /** No planner setting, or only nested loops allowed. */
  private static List<String> settings(boolean nestedLoopsOnly) {
    return nestedLoopsOnly ? List.of("enable_hashjoin = off", "enable_mergejoin = off") : List.of();
  }

  @ParameterizedTest(name = "analyzed while every task waited: {0}, nested loops only: {1}")
  @CsvSource({"false, false", "true, false", "false, true", "true, true"})
  void theOutcomesOfABatchReadItsArraysOnce(boolean analyzedWhileWaiting, boolean nestedLoopsOnly) {
    PlanDatabase db = db(analyzedWhileWaiting);
    List<Long> ids = batch(db, "SELECT min(id) FROM task");
    String plan =
        db.explainAnalyze(
            SqlQuery.TASK_UPDATE_AFTER_RUN_AS_CLAIMED,
            settings(nestedLoopsOnly),
            q ->
                q.bind("owner", OWNER)
                    .bind("ids", PgArray.of(Long.class, ids))
                    .bind("attempts", PgArray.of(Integer.class, Collections.nCopies(BATCH, 1)))
                    .bind(
                        "statuses",
                        PgArray.of(String.class, Collections.nCopies(BATCH, "completed")))
                    .bind("next_run_ms", PgArray.of(Long.class, Collections.nCopies(BATCH, 0L)))
                    .bind(
                        "current_interval_ms",
                        PgArray.of(Long.class, Collections.nCopies(BATCH, null)))
                    .bind("retries_left", PgArray.of(Integer.class, Collections.nCopies(BATCH, 0)))
                    .bind(
                        "claimed_next_run_ms",
                        PgArray.of(
                            Long.class, Collections.nCopies(BATCH, LEASE_UNTIL.toEpochMilli())))
                    .bind(
                        "claimed_interval_ms",
                        PgArray.of(Long.class, Collections.nCopies(BATCH, null)))
                    .bind(
                        "claimed_retries_left",
                        PgArray.of(Integer.class, Collections.nCopies(BATCH, 0))));
    // Every task of the batch was updated, so the fence let them all through...
    assertThat(plan.lines().findFirst().orElseThrow()).as(plan).contains("rows=" + BATCH);
    // ...the arrays were read once, not once per leased task, and each task found by its key.
    assertArraysReadOnceAndTasksFoundByKey(plan);
  }

  @ParameterizedTest(name = "analyzed while every task waited: {0}, nested loops only: {1}")
  @CsvSource({"false, false", "true, false", "false, true", "true, true"})
  void theStartsOfABatchReadTheirArraysOnce(boolean analyzedWhileWaiting, boolean nestedLoopsOnly) {
    PlanDatabase db = db(analyzedWhileWaiting);
    List<Long> ids = batch(db, "SELECT min(id) FROM task");
    String plan =
        db.explainAnalyze(
            SqlQuery.TASK_RUN_INSERT_STARTED,
            settings(nestedLoopsOnly),
            q ->
                q.bind("owner", OWNER)
                    .bind("tasks", PgArray.of(Long.class, ids))
                    .bind(
                        "backend_ids",
                        PgArray.of(String.class, ids.stream().map(id -> id + ".1").toList()))
                    .bind("scheduled_ms", PgArray.of(Long.class, Collections.nCopies(BATCH, 0L)))
                    .bind("started_ms", PgArray.of(Long.class, Collections.nCopies(BATCH, 0L)))
                    .bind("metadata", PgArray.of(String.class, Collections.nCopies(BATCH, "{}")))
                    .bind("attempts", PgArray.of(Integer.class, Collections.nCopies(BATCH, 1))));
    assertThat(plan).as(plan).contains("Tuples Inserted: " + BATCH);
    assertArraysReadOnceAndTasksFoundByKey(plan);
  }

  /**
   * The outcomes' write keeps finding tasks by the primary key when its plan was made on a new
   * store: a runner's connections make the plan the server keeps for the statement in their first
   * passes, when the table may hold a few rows, and it is kept as the table grows until the table
   * is analyzed. Made at 20 tasks, it must still probe the primary key at 20,000. Without the
   * settings the store runs first (taskUpdatePlansByKey), the plan made at 20 is a scan of the
   * whole table, which this checks too, so that the case is known to reproduce the trap.
   */
  @ParameterizedTest(name = "under the store's planner settings: {0}")
  @CsvSource({"true", "false"})
  void theOutcomesOfABatchPlannedOnANewStoreKeepFindingTasksByKey(boolean pinned) throws Exception {
    try (PlanDatabase db = new PlanDatabase("work")) {
      db.execute(newTasks(1, 20, true));
      String plan =
          db.genericPlanAfterGrowth(
              pinned ? SqlQuery.TASK_UPDATE_PLANS_BY_KEY : null,
              SqlQuery.TASK_UPDATE_AFTER_RUN_AS_CLAIMED,
              List.of(
                  ":owner",
                  ":ids",
                  ":attempts",
                  ":statuses",
                  ":next_run_ms",
                  ":current_interval_ms",
                  ":retries_left",
                  ":claimed_next_run_ms",
                  ":claimed_interval_ms",
                  ":claimed_retries_left"),
              List.of(
                  "text",
                  "bigint[]",
                  "int[]",
                  "text[]",
                  "bigint[]",
                  "bigint[]",
                  "int[]",
                  "bigint[]",
                  "bigint[]",
                  "int[]"),
              "'%s', '{5}', '{1}', '{completed}', '{0}', '{NULL}', '{0}', '{%d}', '{NULL}', '{0}'"
                  .formatted(OWNER, LEASE_UNTIL.toEpochMilli()),
              newTasks(21, 20_000, false));
      assertThat(plan.lines().findFirst().orElseThrow()).as(plan).contains("rows=1");
      if (pinned) {
        assertThat(plan).as(plan).doesNotContain("Seq Scan on task");
        assertArraysReadOnceAndTasksFoundByKey(plan);
        assertThat(plan).as(plan).contains("Index Scan using task_pkey on task t");
      } else {
        assertThat(plan).as(plan).contains("Seq Scan on task t");
      }
    }
  }

  /**
   * Tasks {@code from} to {@code to} of type "work": leased by {@link #OWNER} until {@link
   * #LEASE_UNTIL}, attempt 1, or waiting.
   */
  private static String newTasks(int from, int to, boolean leased) {
    return """
        INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy, owner, attempt)
        SELECT 'work', jsonb_build_array(i), md5(i::text), timestamptz '%s', '%s', 'oneshot', %s, %d
        FROM generate_series(%d, %d) AS i
        """
        .formatted(
            LEASE_UNTIL,
            leased ? "next_run_scheduled" : "next_run_not_scheduled",
            leased ? "'" + OWNER + "'" : "NULL",
            leased ? 1 : 0,
            from,
            to);
  }

  /**
   * A claim takes the ids its candidates chose by the primary key, even when the statistics say no
   * task waits (the index of waiting tasks then looks empty, and reading it whole looks cheap).
   */
  @ParameterizedTest(name = "nested loops only: {0}")
  @CsvSource({"false", "true"})
  void aClaimAfterABurstFindsItsTasksByPrimaryKey(boolean nestedLoopsOnly) {
    List<Long> ids =
        batch(burstAfterIdle, "SELECT min(id) FROM task WHERE status = 'next_run_not_scheduled'");
    String plan =
        burstAfterIdle.explainAnalyze(
            SqlQuery.TASK_CLAIM,
            settings(nestedLoopsOnly),
            q ->
                q.bind("owner", OWNER)
                    .bind("lease_until", LEASE_UNTIL)
                    .bind("ids", PgArray.of(Long.class, ids)));
    assertThat(plan.lines().findFirst().orElseThrow()).as(plan).contains("rows=" + BATCH);
    assertThat(plan.lines().filter(line -> line.contains("Scan") && line.contains(" on task ")))
        .as(plan)
        .isNotEmpty()
        .allMatch(scan -> scan.contains("Index Scan using task_pkey on task"));
  }

  /**
   * The fence of a batch's final writes finds each task's open run by the index of open runs
   * (V024), among runs of which nearly all have ended: 20,000 tasks with two ended runs each, the
   * 1,000 leased with an open run of their attempt.
   */
  @ParameterizedTest(name = "nested loops only: {0}")
  @CsvSource({"false", "true"})
  void theFenceFindsEachOpenRunByTheIndexOfOpenRuns(boolean nestedLoopsOnly) throws Exception {
    try (PlanDatabase db = leasedTasks(true)) {
      db.execute(
          """
          INSERT INTO task_run (task, backend_id, ended, status, owner, attempt)
          SELECT id, id || '.' || a, timestamptz '2026-06-01 11:00', 'eventful', 'old', a
          FROM task, generate_series(-1, 0) AS a
          """,
          """
          INSERT INTO task_run (task, backend_id, started, status, owner, attempt)
          SELECT id, id || '.1', timestamptz '2026-06-01 12:00', 'started', owner, 1
          FROM task WHERE owner IS NOT NULL
          """,
          "ANALYZE task_run");
      List<Long> ids = batch(db, "SELECT min(id) FROM task");
      String plan =
          db.explainAnalyze(
              SqlQuery.TASK_LEASE_HELD,
              settings(nestedLoopsOnly),
              q -> q.bind("owner", OWNER).bindList("ids", ids));
      assertThat(plan.lines().findFirst().orElseThrow()).as(plan).contains("rows=" + BATCH);
      assertThat(plan)
          .as(plan)
          .contains("Index Scan using task_run_open_by_task_attempt on task_run r");
      assertThat(db.count("SELECT count(*) FROM task_run WHERE status = 'started'"))
          .isEqualTo(LEASED);
    }
  }

  /** A scan of the bound arrays (unnest, named u or, inside the batch's subquery, u_1). */
  private static final Pattern ARRAY_SCAN_LOOPS =
      Pattern.compile("Function Scan on (?:unnest|u\\w*) .*loops=(\\d+)");

  /**
   * The bound arrays were read once (not once per leased task), and every scan of the task table
   * that ran more than once was a probe of its primary key.
   */
  private static void assertArraysReadOnceAndTasksFoundByKey(String plan) {
    assertThat(arrayScanLoops(plan)).as(plan).containsOnly(1);
    assertThat(repeatedTaskScans(plan))
        .as(plan)
        .allMatch(scan -> scan.contains("Index Scan using task_pkey on task t"));
  }

  /**
   * The scans of the task table that ran more than once: in a nested loop that begins from the
   * batch, each must be a probe of the primary key, not a search of another index that returns many
   * tasks to filter (task_leased_by_type by the lease's end, which a whole claim shares).
   */
  private static List<String> repeatedTaskScans(String plan) {
    return plan.lines()
        .filter(line -> line.contains(" on task t ") && !line.contains("loops=1)"))
        .toList();
  }

  /** How many times each scan of the bound arrays ran; at least one scan must be found. */
  private static List<Integer> arrayScanLoops(String plan) {
    List<Integer> loops =
        plan.lines()
            .map(ARRAY_SCAN_LOOPS::matcher)
            .filter(Matcher::find)
            .map(m -> Integer.parseInt(m.group(1)))
            .toList();
    assertThat(loops).as("scans of the arrays in\n" + plan).isNotEmpty();
    return loops;
  }
}
