package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Creating tasks looks duplicates up through {@code task_duplicate_lookup} (partial: waiting tasks
 * only) even on a table the planner has no statistics of, as in a bulk insert of 100,000 tasks into
 * a new database, which outruns autovacuum: 100,000 waiting tasks of one type, never analyzed. With
 * one IN list of hashes the planner guessed that most rows match and walked every waiting task of
 * the type through {@code task_ready_by_type} for each chunk of 500 (inserting fell from 16,462 to
 * 1,427 tasks/s). The chunk's lookup now takes its hashes as one array, so its text is the same for
 * every chunk and the server keeps it prepared; its plan is checked with a chunk's values and as
 * the generic plan the server may keep, chosen with no value known.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresDuplicatePlanTest {
  private PlanDatabase db;

  @BeforeAll
  void fill() throws Exception {
    db = new PlanDatabase("work");
    db.execute(
        "ALTER TABLE task SET (autovacuum_enabled = false)",
        """
        INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy, attempt)
        SELECT 'work', jsonb_build_array(i), md5(i::text),
               timestamptz '2026-06-01 11:00' + (i % 3600) * interval '1 second',
               'next_run_not_scheduled', 'oneshot', 0
        FROM generate_series(1, 100000) AS i
        """);
  }

  @AfterAll
  void close() {
    db.close();
  }

  @Test
  void theTableHasNoStatistics() {
    assertThat(db.count("SELECT count(*) FROM pg_stats WHERE tablename = 'task'")).isZero();
  }

  @Test
  void aChunksLookupReadsTheDuplicateIndex() {
    List<String> hashes = new ArrayList<>();
    for (int i = 1; i <= TaskInserts.CHUNK; i++) {
      hashes.add(String.format("%032x", i * 7919L));
    }
    String plan =
        db.explain(
            SqlQuery.TASK_FIND_DUPLICATES, q -> db.bindDuplicateLookup(q, List.of("work"), hashes));
    readsTheDuplicateIndex(plan);
  }

  @Test
  void aChunksLookupReadsTheDuplicateIndexInItsGenericPlan() throws Exception {
    String plan =
        db.genericPlan(
            SqlQuery.TASK_FIND_DUPLICATES,
            List.of(":hashes", ":types"),
            List.of("text[]", "text[]"),
            "'{00000000000000000000000000001eef}', '{work}'");
    readsTheDuplicateIndex(plan);
  }

  @Test
  void creatingOneTaskLooksItsHashUpInTheDuplicateIndex() {
    String plan =
        db.explain(
            SqlQuery.TASK_INSERT_UNLESS_DUPLICATE,
            q ->
                q.bind("channel", "drover_work")
                    .bind("type", "work")
                    .bind("arguments", "[1]")
                    .bind("hash", String.format("%032x", 1))
                    .bind("nextRun", Instant.parse("2026-06-01T12:00:00Z"))
                    .bind("intervalMs", (Long) null)
                    .bind("status", "next_run_not_scheduled")
                    .bind("policy", "oneshot")
                    .bind("retriesLeft", 0)
                    .bind("priority", (String) null)
                    .bind("concurrencyKey", (String) null)
                    .bind("typeVersion", 1L));
    readsTheDuplicateIndex(plan);
  }

  private static void readsTheDuplicateIndex(String plan) {
    assertThat(plan)
        .as(plan)
        .contains("task_duplicate_lookup")
        .doesNotContain("task_ready_by_type")
        .doesNotContain("Seq Scan on task");
  }
}
