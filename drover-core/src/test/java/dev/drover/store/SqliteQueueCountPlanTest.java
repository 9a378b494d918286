package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The count of a type's queue on SQLite (what the visit scheduler fills, and what keeps a runner
 * that exits when idle) reads the queued tasks through an index of waiting tasks, not the type's
 * history, each type once, on a store never analyzed and on one analyzed: 20,000 visit tasks, all
 * but 1,000 of them ended.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqliteQueueCountPlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  @TempDir static Path dir;
  private final SqlFiles sql = new SqlFiles(Dialect.SQLITE);
  private Store store;
  private Jdbi jdbi;

  @BeforeAll
  void fill() {
    store = Stores.open(StoreLocation.dataDir(dir));
    store.taskTypeCreate(TaskType.builder("load-git").build());
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      tasks.add(NewTask.oneshot("load-git", TaskArguments.of(List.of("origin-" + i), Map.of())));
    }
    store.taskCreate(tasks, NOW);
    jdbi = Jdbi.create(store.dataSource().orElseThrow());
    // A visit type's history outgrows its queue: all but the last 1,000 have ended.
    jdbi.useHandle(
        h ->
            h.execute(
                "UPDATE task SET status = 'completed' WHERE id <= (SELECT max(id) - 1000 FROM task)"));
  }

  @AfterAll
  void close() {
    store.close();
  }

  @Test
  void theQueueCountSearchesTheWaitingTasksOfEachTypeWithoutStatistics() {
    searchesTheWaitingTasks(plan());
    assertThat(store.taskCountOutstanding(List.of("load-git", "other"), NOW)).isEqualTo(1_000);
  }

  @Test
  void theQueueCountSearchesTheWaitingTasksOfEachTypeOnceAnalyzed() {
    jdbi.useHandle(h -> h.execute("ANALYZE"));
    try {
      searchesTheWaitingTasks(plan());
    } finally {
      jdbi.useHandle(h -> h.execute("DROP TABLE IF EXISTS sqlite_stat1"));
    }
  }

  private String plan() {
    return jdbi.withHandle(
        h ->
            String.join(
                "\n",
                h.createQuery("EXPLAIN QUERY PLAN " + sql.get(SqlQuery.TASK_COUNT_OUTSTANDING))
                    .bindList("types", List.of("load-git"))
                    .bind("now", NOW.toEpochMilli())
                    .map((rs, ctx) -> rs.getString("detail"))
                    .list()));
  }

  private static void searchesTheWaitingTasks(String plan) {
    assertThat(plan)
        .as(plan)
        .containsPattern(
            "SEARCH t USING (COVERING )?INDEX task_(ready_by_type|claim_by_type_\\w+) \\(type=\\?")
        .doesNotContainPattern("SCAN tt?\\b");
  }
}
