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
 * Creating tasks on SQLite looks a chunk's duplicates up through {@code task_duplicate_lookup}, a
 * search per type and hash, with the types and hashes bound as JSON arrays as the store binds them:
 * on a store never analyzed (as one just filled from a file) and on one analyzed, so that the plan
 * does not depend on statistics SQLite may or may not have.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqliteDuplicatePlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  @TempDir static Path dir;
  private final SqlFiles sql = new SqlFiles(Dialect.SQLITE);
  private final SqliteSql dialect = new SqliteSql(sql, null, StoreProbe.NONE, SqliteWriteGate.NONE);
  private SqlitePlanStore db;

  @BeforeAll
  void fill() {
    db = new SqlitePlanStore(dir);
    db.store.taskTypeCreate(TaskType.builder("work").build());
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      tasks.add(NewTask.oneshot("work", TaskArguments.of(List.of("item-" + i), Map.of())));
    }
    db.store.taskCreate(tasks, NOW);
  }

  @AfterAll
  void close() {
    db.close();
  }

  @Test
  void aChunksLookupSearchesTheDuplicateIndexWithoutStatistics() {
    readsTheDuplicateIndex(plan());
  }

  @Test
  void aChunksLookupSearchesTheDuplicateIndexOnceAnalyzed() {
    db.analyzed(() -> readsTheDuplicateIndex(plan()));
  }

  /** The lookup finds the chunk's stored tasks: one per hash, whatever the JSON must escape. */
  @Test
  void aChunksLookupFindsItsStoredTasks() {
    List<String> hashes =
        db.jdbi.withHandle(
            h ->
                h.createQuery("SELECT arguments_hash FROM task ORDER BY id LIMIT 500")
                    .mapTo(String.class)
                    .list());
    List<String> asked = new ArrayList<>(hashes);
    asked.add("not \"a\" hash\\\n");
    long found =
        db.jdbi.withHandle(
            h -> {
              var lookup = h.createQuery(sql.get(SqlQuery.TASK_FIND_DUPLICATES));
              dialect.bindDuplicateLookup(lookup, List.of("work", "other\t\"type\""), asked);
              return lookup.mapToMap().list().size();
            });
    assertThat(found).isEqualTo(hashes.size());
  }

  private String plan() {
    List<String> hashes = new ArrayList<>();
    for (int i = 1; i <= TaskInserts.CHUNK; i++) {
      hashes.add(String.format("%032x", i * 7919L));
    }
    return String.join(
        "\n",
        db.plan(
            SqlQuery.TASK_FIND_DUPLICATES,
            q -> {
              dialect.bindDuplicateLookup(q, List.of("work"), hashes);
              return q;
            }));
  }

  private static void readsTheDuplicateIndex(String plan) {
    assertThat(plan)
        .as(plan)
        .contains("SEARCH task USING INDEX task_duplicate_lookup (type=? AND arguments_hash=?)")
        .doesNotContain("SCAN task");
  }
}
