package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The count of a type's queue (what the visit scheduler fills, and what keeps a runner that exits
 * when idle) reads the queued and the leased tasks through their partial indexes, not the type's
 * history, even before the planner has statistics: 100,000 visit tasks, 99 % of them ended,
 * inserted after the last ANALYZE, as a visit type ending a thousand tasks a second outruns
 * autovacuum. (Measured: the count read the whole table, 48,000 pages and 57 ms a call.) Each type
 * is read once, not once per queued task (measured: 1,000 searches of task_type, two thirds of the
 * buffers a count read; 1.66 ms a count, median, against 0.81 since).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresQueueCountPlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  private PlanDatabase db;

  @BeforeAll
  void fill() throws Exception {
    db = new PlanDatabase("load-git");
    db.execute(
        """
        INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy, owner, attempt)
        SELECT 'load-git', jsonb_build_array(i), md5(i::text),
               timestamptz '2026-06-01 11:00' + (i % 3600) * interval '1 second',
               CASE WHEN i % 100 = 1 THEN 'next_run_not_scheduled'
                    WHEN i % 1000 = 2 THEN 'next_run_scheduled' ELSE 'completed' END,
               'oneshot',
               CASE WHEN i % 1000 = 2 THEN 'runner-1' END,
               CASE WHEN i % 100 = 1 THEN 0 ELSE 1 END
        FROM generate_series(1, 100000) AS i
        """);
  }

  @AfterAll
  void close() {
    db.close();
  }

  @Test
  void theQueueCountReadsTheQueueAndTheLeasesNotTheHistory() {
    String plan =
        db.explain(
            SqlQuery.TASK_COUNT_OUTSTANDING,
            q -> q.bindList("types", List.of("load-git")).bind("now", NOW));
    assertThat(plan)
        .as(plan)
        .doesNotContain("Seq Scan on task t")
        .contains("task_ready_by_type")
        .contains("task_leased_by_type")
        .doesNotContain("task_duplicate_lookup")
        .doesNotContain("task_by_next_run");
    assertThat(db.store.taskCountOutstanding(List.of("load-git"), NOW)).isEqualTo(1000 + 100);
  }

  @Test
  void theQueueCountReadsEachTypeOnceNotOncePerQueuedTask() {
    String plan =
        db.explainAnalyze(
            SqlQuery.TASK_COUNT_OUTSTANDING,
            List.of(),
            q -> q.bindList("types", List.of("load-git")).bind("now", NOW));
    PlanDatabase.assertTaskTypeReadOnce(plan);
  }
}
