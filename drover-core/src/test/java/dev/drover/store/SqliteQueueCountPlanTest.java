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
  private SqlitePlanStore db;

  @BeforeAll
  void fill() {
    db = new SqlitePlanStore(dir);
    db.store.taskTypeCreate(TaskType.builder("load-git").build());
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      tasks.add(NewTask.oneshot("load-git", TaskArguments.of(List.of("origin-" + i), Map.of())));
    }
    db.store.taskCreate(tasks, NOW);
    // A visit type's history outgrows its queue: all but the last 1,000 have ended.
    db.jdbi.useHandle(
        h ->
            h.execute(
                "UPDATE task SET status = 'completed' WHERE id <= (SELECT max(id) - 1000 FROM task)"));
  }

  @AfterAll
  void close() {
    db.close();
  }

  @Test
  void theQueueCountSearchesTheWaitingTasksOfEachTypeWithoutStatistics() {
    searchesTheWaitingTasks(plan());
    assertThat(db.store.taskCountOutstanding(List.of("load-git", "other"), NOW)).isEqualTo(1_000);
  }

  @Test
  void theQueueCountSearchesTheWaitingTasksOfEachTypeOnceAnalyzed() {
    db.analyzed(() -> searchesTheWaitingTasks(plan()));
  }

  private String plan() {
    return String.join(
        "\n",
        db.plan(
            SqlQuery.TASK_COUNT_OUTSTANDING,
            q -> q.bindList("types", List.of("load-git")).bind("now", NOW.toEpochMilli())));
  }

  private static void searchesTheWaitingTasks(String plan) {
    assertThat(plan)
        .as(plan)
        .containsPattern(
            "SEARCH t USING (COVERING )?INDEX task_(ready_by_type|claim_by_type_\\w+) \\(type=\\?")
        .doesNotContainPattern("SCAN tt?\\b");
  }
}
