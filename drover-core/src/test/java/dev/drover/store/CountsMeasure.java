package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.PostgresTemplate;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures the status counts (per type, per tree) on 1,000,000 tasks on both databases and prints
 * the median of five runs; it asserts the counts, never the time. Off by default (it takes a minute
 * to fill): {@code mvn -pl drover-core test -Dtest=CountsMeasure -Ddrover.measure=true}. 1,000,000
 * tasks of two types, one tree of 100,000 under task 1 and one of 26 under task 500,000.
 */
@EnabledIfSystemProperty(named = "drover.measure", matches = "true")
class CountsMeasure {
  private static final int TASKS = 1_000_000;

  @TempDir Path tmp;

  @Test
  void sqlite() throws Exception {
    StoreLocation location = StoreLocation.dataDir(tmp);
    try (Store store = Stores.open(location)) {
      types(store);
      try (Connection c =
              DriverManager.getConnection(
                  "jdbc:sqlite:" + tmp.resolve(StoreLocation.DATABASE_FILE));
          Statement s = c.createStatement()) {
        s.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
                + TASKS
                + ") INSERT INTO task (id, type, arguments, arguments_hash, next_run, status,"
                + " policy, parent, root) SELECT i, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END,"
                + " '[]', 'h' || i, 0, CASE i % 4 WHEN 0 THEN 'completed' WHEN 1 THEN"
                + " 'next_run_not_scheduled' WHEN 2 THEN 'disabled' ELSE 'paused' END, 'oneshot',"
                + " CASE WHEN i BETWEEN 2 AND 100001 THEN 1 WHEN i BETWEEN 500001 AND 500026"
                + " THEN 500000 END, CASE WHEN i BETWEEN 2 AND 100001 THEN 1 WHEN i BETWEEN"
                + " 500001 AND 500026 THEN 500000 END FROM n");
        s.execute("ANALYZE");
      }
      measure("sqlite", store);
    }
  }

  @Test
  void postgres() throws Exception {
    String url = PostgresTemplate.migratedUrl();
    try (Store store = Stores.open(StoreLocation.postgres(url))) {
      types(store);
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute(
            "INSERT INTO task (type, arguments, arguments_hash, next_run, status, policy, parent,"
                + " root) SELECT CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END, '[]', 'h' || i,"
                + " now(), CASE i % 4 WHEN 0 THEN 'completed' WHEN 1 THEN"
                + " 'next_run_not_scheduled' WHEN 2 THEN 'disabled' ELSE 'paused' END, 'oneshot',"
                + " CASE WHEN i BETWEEN 2 AND 100001 THEN 1 WHEN i BETWEEN 500001 AND 500026"
                + " THEN 500000 END, CASE WHEN i BETWEEN 2 AND 100001 THEN 1 WHEN i BETWEEN"
                + " 500001 AND 500026 THEN 500000 END FROM generate_series(1, "
                + TASKS
                + ") AS i");
        s.execute("VACUUM ANALYZE task");
        for (String q : new String[] {"taskCountByRoot", "taskCountByTypeAndStatus"}) {
          String text =
              new SqlFiles(Dialect.POSTGRESQL)
                  .get(SqlQuery.valueOf(q.replaceAll("([A-Z])", "_$1").toUpperCase()))
                  .replace(":root", "1");
          try (var rs = s.executeQuery("EXPLAIN " + text)) {
            while (rs.next()) {
              System.out.println("PLAN " + q + ": " + rs.getString(1));
            }
          }
        }
      }
      measure("postgres", store);
    }
  }

  private static void types(Store store) {
    store.taskTypeCreate(TaskType.builder("a").build());
    store.taskTypeCreate(TaskType.builder("b").build());
  }

  private static void measure(String db, Store store) {
    long total =
        time(db, "per type and status", () -> store.taskCountByTypeAndStatus()).stream()
            .mapToLong(c -> c.count())
            .sum();
    assertThat(total).isEqualTo(TASKS);
    store.taskCountCompact();
    time(db, "per type and status, folded", store::taskCountByTypeAndStatus);
    Map<String, Long> due =
        time(db, "due per type", () -> store.taskCountDueByType(java.time.Instant.now()));
    assertThat(due.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(TASKS / 4);
    time(db, "disabled by operator per type", store::taskCountDisabledByOperator);
    Map<TaskStatus, Long> big = time(db, "tree of 100,001", () -> store.taskCountByRoot(1));
    assertThat(big.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(100_001);
    Map<TaskStatus, Long> small = time(db, "tree of 27", () -> store.taskCountByRoot(500_000));
    assertThat(small.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(27);
  }

  private static <T> T time(String db, String what, Supplier<T> query) {
    long[] ms = new long[5];
    T out = null;
    for (int i = 0; i < ms.length; i++) {
      long start = System.nanoTime();
      out = query.get();
      ms[i] = (System.nanoTime() - start) / 1_000_000;
    }
    Arrays.sort(ms);
    System.out.println(
        "MEASURE " + db + " " + what + ": median " + ms[2] + " ms " + Arrays.toString(ms));
    return out;
  }
}
