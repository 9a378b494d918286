package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What a runner that exits when idle waits for (taskWaiting) reads each type once, not once per
 * task due later: 20,000 tasks due later, as a type of periodic work has (100 of them one-shot),
 * among 40,000 ended. (Measured here: asked for each task, the type was searched 20,000 times,
 * 40,000 of the 41,608 buffers a call read, 25 ms a call, median of five rounds of 50; joined once,
 * 1,412 buffers and 9.7 ms.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresWaitingPlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  private PlanDatabase db;

  @BeforeAll
  void fill() throws Exception {
    db = new PlanDatabase("poll-git");
    db.execute(
        """
        UPDATE task_type SET num_retries = 3 WHERE name = 'poll-git'
        """,
        """
        INSERT INTO task (type, arguments, arguments_hash, next_run, current_interval_ms, status,
                          policy, retries_left, attempt)
        SELECT 'poll-git', jsonb_build_array(i), md5(i::text),
               timestamptz '2026-06-01 13:00+00' + (i % 86400) * interval '1 second',
               CASE WHEN i % 600 = 0 THEN NULL ELSE 86400000 END,
               CASE WHEN i % 3 = 0 THEN 'next_run_not_scheduled' ELSE 'completed' END,
               CASE WHEN i % 600 = 0 THEN 'oneshot' ELSE 'recurring' END,
               3, 1
        FROM generate_series(1, 60000) AS i
        """,
        "ANALYZE task");
  }

  @AfterAll
  void close() {
    db.close();
  }

  @Test
  void theWaitCheckReadsEachTypeOnceNotOncePerTaskDueLater() {
    String plan =
        db.explainAnalyze(
            SqlQuery.TASK_WAITING,
            List.of(),
            q -> q.bindList("types", List.of("poll-git", "other")).bind("now", NOW));
    PlanDatabase.assertTaskTypeReadOnce(plan);
    assertThat(db.store.taskWaiting(List.of("poll-git"), NOW))
        .isEqualTo(new TaskWaiting(0, null, 100, Instant.parse("2026-06-01T13:10:00Z")));
  }
}
