package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The runner's per-pass queries, and task creation's duplicate lookup, are served by indexes on
 * PostgreSQL, so their cost does not grow with the backlog: EXPLAIN of the exact SQL the store
 * runs, on 100,000 analyzed tasks of one type, nearly all due and without a priority, a few hundred
 * high, the rest leased or done (with their runs).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresClaimPlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  private PlanDatabase db;

  @BeforeAll
  void fill() throws Exception {
    db = new PlanDatabase("work", "other");
    db.execute(
        """
        INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy, priority, owner, attempt)
        SELECT CASE WHEN i % 50 = 0 THEN 'other' ELSE 'work' END,
               jsonb_build_array(i), md5(i::text),
               timestamptz '2026-06-01 11:00' + (i % 3600) * interval '1 second',
               CASE WHEN i % 20 = 1 THEN 'next_run_scheduled' WHEN i % 20 = 2 THEN 'completed'
                    ELSE 'next_run_not_scheduled' END,
               'oneshot',
               CASE WHEN i % 300 = 7 THEN 'high' END,
               CASE WHEN i % 20 = 1 THEN 'runner-' || (i % 3) END,
               CASE WHEN i % 20 = 1 THEN 1 ELSE 0 END
        FROM generate_series(1, 100000) AS i
        """,
        """
        INSERT INTO task_run (task, backend_id, scheduled, started, ended, status, owner, attempt)
        SELECT id, id || '.1', next_run, next_run, CASE WHEN owner IS NULL THEN next_run END,
               CASE WHEN owner IS NULL THEN 'eventful' ELSE 'started' END, 'runner-' || (id % 3), 1
        FROM task
        WHERE status IN ('next_run_scheduled', 'completed')
        """,
        "ANALYZE");
  }

  @AfterAll
  void close() {
    db.close();
  }

  @Test
  void claimCandidatesWalkTheClaimIndexOfEachLevelWithoutSorting() {
    String plan =
        db.explain(
            SqlQuery.TASK_CLAIM_CANDIDATES,
            q -> withFloors(q.bind("type", "work").bind("now", NOW).bind("limit", 8), null, null));
    // task_type (two rows here) may be read whole; the tasks never are
    assertThat(plan).as(plan).doesNotContainPattern("Seq Scan on task\\b(?!_type)");
    assertThat(plan).as(plan).doesNotContain("Sort");
    assertThat(plan.split("Index Scan using task_claim_by_type_priority", -1)).as(plan).hasSize(5);
    // the pause is checked once per level, before its walk, not per row
    assertThat(plan.split("One-Time Filter", -1)).as(plan).hasSize(5);
  }

  @Test
  void claimCandidatesStartEachLevelAtItsFloorInTheIndex() {
    String plan =
        db.explain(
            SqlQuery.TASK_CLAIM_CANDIDATES,
            q ->
                withFloors(
                    q.bind("type", "work").bind("now", NOW).bind("limit", 8),
                    Instant.parse("2026-06-01T11:30:00Z"),
                    50_000L));
    assertThat(plan).as(plan).doesNotContainPattern("Seq Scan on task\\b(?!_type)");
    assertThat(plan).as(plan).doesNotContain("Sort");
    // the floor bounds each walk (an Index Cond), rather than filtering the rows it reads
    assertThat(plan.split("Index Cond: .*ROW\\(next_run, id\\) > ROW\\(", -1)).as(plan).hasSize(5);
  }

  /** Binds every level's floor of taskClaimCandidates to {@code run, id} (null: no floor). */
  private static Query withFloors(Query q, Instant run, Long id) {
    for (String level : List.of("high", "normal", "low", "none")) {
      q.bindByType(level + "_after_run", run, Instant.class)
          .bindByType(level + "_after_id", id, Long.class);
    }
    return q;
  }

  /**
   * Each half reads only its window of an index, bounded by the index condition: entries before the
   * window (dead ones of tasks claimed since the last vacuum among them) are never read.
   */
  @Test
  void nextDueReadsOnlyItsWindowOfAnIndex() {
    String plan =
        db.explain(
            SqlQuery.TASK_NEXT_DUE,
            q -> q.bind("type", "work").bind("after", NOW).bind("before", NOW.plusSeconds(1)));
    assertThat(plan)
        .as(plan)
        .doesNotContain("Seq Scan")
        .doesNotContain("Bitmap Heap Scan on task")
        .contains("Index Only Scan using task_ready_by_type")
        .contains("task_leased_by_type");
    assertThat(
            plan.split(
                "Index Cond: \\(\\(type = 'work'::text\\) AND \\(next_run > .*\\) AND \\(next_run < ",
                -1))
        .as(plan)
        .hasSize(3);
  }

  @Test
  void theOldestWaitingTaskIsOneStepIntoAnIndex() {
    String plan = db.explain(SqlQuery.TASK_OLDEST_WAITING, q -> q.bind("type", "work"));
    assertThat(plan)
        .as(plan)
        .doesNotContain("Seq Scan")
        .doesNotContain("Bitmap Heap Scan on task")
        .contains("Index Only Scan using task_ready_by_type");
  }

  /**
   * The rescue and a dead runner's leases read the index of leased tasks (5,000 here), never the
   * 100,000 tasks.
   */
  @Test
  void theRescueAndADeadRunnersLeasesReadOnlyTheLeasedTasks() {
    String expired =
        db.explain(SqlQuery.TASK_LEASE_EXPIRED, q -> q.bind("now", NOW).bind("limit", 100));
    String ofRunner = db.explain(SqlQuery.TASK_LEASED_BY, q -> q.bind("owner", "runner-1"));
    for (String plan : List.of(expired, ofRunner)) {
      assertThat(plan).as(plan).doesNotContain("Seq Scan").contains("task_leased_by_type");
    }
  }

  @Test
  void theCompletionFenceReadsOnlyTheBatch() {
    String plan =
        db.explain(
            SqlQuery.TASK_LEASE_HELD,
            q -> q.bindList("ids", List.of(21L, 41L, 61L)).bind("owner", "runner-1"));
    assertThat(plan).as(plan).doesNotContain("Seq Scan").contains("task_pkey");
  }

  @Test
  void aChunksDuplicateLookupUsesTheDuplicateIndex() throws Exception {
    List<String> hashes = new ArrayList<>();
    for (int i = 1; i <= TaskInserts.CHUNK; i++) {
      hashes.add(
          HexFormat.of()
              .formatHex(
                  MessageDigest.getInstance("MD5")
                      .digest(Integer.toString(i * 97).getBytes(StandardCharsets.UTF_8))));
    }
    String plan =
        db.explain(
            SqlQuery.TASK_FIND_DUPLICATES, q -> db.bindDuplicateLookup(q, List.of("work"), hashes));
    assertThat(plan).as(plan).doesNotContain("Seq Scan").contains("task_duplicate_lookup");
  }
}
