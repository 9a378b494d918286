package dev.drover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import dev.drover.testing.Databases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteDataSource;

/**
 * Drover on the application's own pool ({@link Drover#open(DataSource)}) and tasks created inside
 * the application's transaction ({@link Drover#taskCreate(Connection, List)}), on both databases.
 */
class EmbeddingTest {
  @RegisterExtension final Databases postgres = Databases.postgres();
  @TempDir Path tmp;

  private static final TaskType TYPE =
      TaskType.builder("fetch")
          .intervals(Duration.ofDays(1), Duration.ofHours(1), Duration.ofDays(30))
          .build();

  private static NewTask task(String url) {
    return NewTask.oneshot("fetch", TaskArguments.of(List.of(url), Map.of()));
  }

  /** The application's PostgreSQL pool, as its driver's plain DataSource. */
  private PGSimpleDataSource postgresSource() {
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setUrl(postgres.fresh().jdbcUrl());
    source.setStringType("unspecified");
    return source;
  }

  /** The application's SQLite pool: a HikariCP pool on a new, empty file. */
  private HikariDataSource sqlitePool() {
    return sqlitePool(true);
  }

  private HikariDataSource sqlitePool(boolean autoCommit) {
    SQLiteDataSource sqlite = new SQLiteDataSource();
    sqlite.setUrl("jdbc:sqlite:" + tmp.resolve("app.db"));
    HikariConfig config = new HikariConfig();
    config.setDataSource(sqlite);
    config.setMaximumPoolSize(4);
    config.setAutoCommit(autoCommit);
    return new HikariDataSource(config);
  }

  @Test
  void runsOnTheApplicationsSqlitePoolAndLeavesItOpen() throws SQLException {
    try (HikariDataSource pool = sqlitePool()) {
      try (Drover drover = Drover.open(pool)) {
        drover.taskTypeCreate(TYPE);
        drover.taskCreate(List.of(task("https://a.example")));
      }
      assertThat(pool.isClosed()).as("the application's pool after Drover closed").isFalse();
      try (Drover again = Drover.open(pool)) {
        assertThat(again.taskTypes()).extracting(TaskType::name).containsExactly("fetch");
        assertThat(again.dueCounts()).containsEntry("fetch", 1L);
      }
    }
  }

  @Test
  void runsOnTheApplicationsPostgresPoolAndLeavesItOpen() throws SQLException {
    PGSimpleDataSource source = postgresSource();
    try (HikariDataSource pool = new HikariDataSource(hikariOn(source))) {
      try (Drover drover = Drover.open(pool)) {
        drover.taskTypeCreate(TYPE);
        drover.taskCreate(List.of(task("https://a.example")));
      }
      assertThat(pool.isClosed()).isFalse();
      try (Drover again = Drover.open(pool)) {
        assertThat(again.dueCounts()).containsEntry("fetch", 1L);
      }
    }
  }

  @Test
  void refusesAPostgresPoolThatTypesStringsAsVarchar() {
    PGSimpleDataSource source = postgresSource();
    source.setStringType("varchar");
    assertThatThrownBy(() -> Drover.open(source))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("datasource")
        .hasMessageContaining("stringtype=unspecified");
  }

  @Test
  void aTaskCreatedInTheApplicationsTransactionAppearsOnlyAtCommit() throws SQLException {
    PGSimpleDataSource source = postgresSource();
    try (Drover drover = Drover.open(source);
        Connection app = source.getConnection()) {
      drover.taskTypeCreate(TYPE);
      app.setAutoCommit(false);
      List<Task> created = drover.taskCreate(app, List.of(task("https://a.example")));
      assertThat(created).hasSize(1);
      assertThat(tasksSeenBy(source)).as("before the commit").isZero();
      assertThat(drover.task(created.get(0).id())).isEmpty();

      app.commit();

      assertThat(tasksSeenBy(source)).as("after the commit").isEqualTo(1);
      assertThat(drover.task(created.get(0).id())).isPresent();
    }
  }

  @Test
  void aRolledBackTransactionLeavesNoTask() throws SQLException {
    PGSimpleDataSource source = postgresSource();
    try (Drover drover = Drover.open(source);
        Connection app = source.getConnection()) {
      drover.taskTypeCreate(TYPE);
      app.setAutoCommit(false);
      drover.taskCreate(app, List.of(task("https://a.example"), task("https://b.example")));
      app.rollback();
      assertThat(tasksSeenBy(source)).isZero();
      assertThat(app.isClosed()).as("the application's connection").isFalse();
    }
  }

  @Test
  void threadsLendingConnectionsAtOnceEachWriteInTheirOwnTransaction() throws Exception {
    PGSimpleDataSource source = postgresSource();
    int perThread = 500;
    try (Drover drover = Drover.open(source);
        Connection kept = source.getConnection();
        Connection dropped = source.getConnection()) {
      drover.taskTypeCreate(TYPE);
      kept.setAutoCommit(false);
      dropped.setAutoCommit(false);
      CyclicBarrier together = new CyclicBarrier(2);
      ExecutorService threads = Executors.newFixedThreadPool(2);
      try {
        List<Future<?>> creating = new ArrayList<>();
        for (var lent : Map.of("kept", kept, "dropped", dropped).entrySet()) {
          creating.add(
              threads.submit(
                  () -> {
                    together.await();
                    for (int i = 0; i < perThread; i++) {
                      String url = "https://" + lent.getKey() + ".example/" + i;
                      drover.taskCreate(lent.getValue(), List.of(task(url)));
                    }
                    return null;
                  }));
        }
        for (Future<?> f : creating) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        threads.shutdownNow();
      }
      kept.commit();
      dropped.rollback();

      try (Connection other = source.getConnection();
          ResultSet rs =
              other
                  .createStatement()
                  .executeQuery(
                      "SELECT count(*), count(*) FILTER (WHERE arguments::text"
                          + " LIKE '%kept.example%') FROM task")) {
        rs.next();
        assertThat(rs.getLong(1)).as("tasks committed").isEqualTo(perThread);
        assertThat(rs.getLong(2)).as("of them, the committing thread's").isEqualTo(perThread);
      }
    }
  }

  @Test
  void theNotifyIsSentAtCommitAndNotAtRollback() throws SQLException {
    PGSimpleDataSource source = postgresSource();
    try (Drover drover = Drover.open(source);
        Connection listener = source.getConnection();
        Connection app = source.getConnection()) {
      drover.taskTypeCreate(TYPE);
      listener.createStatement().execute("LISTEN drover_work");
      app.setAutoCommit(false);

      drover.taskCreate(app, List.of(task("https://a.example")));
      assertThat(notifications(listener)).as("before the commit").isZero();
      app.rollback();
      assertThat(notifications(listener)).as("after a rollback").isZero();

      drover.taskCreate(app, List.of(task("https://b.example")));
      app.commit();
      assertThat(notifications(listener)).as("after the commit").isPositive();
    }
  }

  @Test
  void refusesAConnectionInAutoCommit() throws SQLException {
    PGSimpleDataSource source = postgresSource();
    try (Drover drover = Drover.open(source);
        Connection app = source.getConnection()) {
      drover.taskTypeCreate(TYPE);
      assertThatThrownBy(() -> drover.taskCreate(app, List.of(task("https://a.example"))))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("connection")
          .hasMessageContaining("setAutoCommit(false)");
    }
  }

  @Test
  void createsInTheApplicationsSqliteTransactionToo() throws SQLException {
    try (HikariDataSource pool = sqlitePool();
        Drover drover = Drover.open(pool)) {
      drover.taskTypeCreate(TYPE);
      try (Connection app = pool.getConnection()) {
        app.setAutoCommit(false);
        drover.taskCreate(app, List.of(task("https://a.example")));
        app.rollback();
        drover.taskCreate(app, List.of(task("https://b.example")));
        app.commit();
      }
      assertThat(drover.dueCounts()).containsEntry("fetch", 1L);
    }
  }

  @Test
  void aRunnerListeningOnTheApplicationsPoolHearsTheCommitAndGivesTheConnectionBack()
      throws Exception {
    HikariConfig config = hikariOn(postgresSource());
    config.setMaximumPoolSize(2); // one for the listener, one for everything else
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (Drover drover = Drover.open(pool);
          Connection app = pool.getConnection()) {
        drover.taskTypeCreate(TYPE);
        Semaphore wakes = new Semaphore(0);
        try (AutoCloseable subscription = drover.store().onWork(wakes::release)) {
          // The listener wakes once when it starts listening, for work created before.
          assertThat(wakes.tryAcquire(60, TimeUnit.SECONDS)).as("listening").isTrue();
          wakes.drainPermits();
          app.setAutoCommit(false);
          drover.taskCreate(app, List.of(task("https://a.example")));
          assertThat(wakes.availablePermits()).as("wake-ups before the commit").isZero();
          app.commit();
          assertThat(wakes.tryAcquire(60, TimeUnit.SECONDS)).as("woken by the commit").isTrue();
        }
      }
      // Both connections back in the pool, neither still listening.
      try (Connection a = pool.getConnection();
          Connection b = pool.getConnection()) {
        for (Connection c : List.of(a, b)) {
          try (ResultSet rs =
              c.createStatement().executeQuery("SELECT count(*) FROM pg_listening_channels()")) {
            rs.next();
            assertThat(rs.getLong(1)).as("channels a pooled connection listens on").isZero();
          }
        }
      }
    }
  }

  @Test
  void refusesAPoolWhoseConnectionsStartWithAutoCommitOff() {
    try (HikariDataSource pool = sqlitePool(false)) {
      assertThatThrownBy(() -> Drover.open(pool))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("datasource")
          .hasMessageContaining("auto-commit");
    }
  }

  private static HikariConfig hikariOn(DataSource source) {
    HikariConfig config = new HikariConfig();
    config.setDataSource(source);
    config.setMaximumPoolSize(4);
    return config;
  }

  /** How many tasks a separate connection sees: what another process would. */
  private static long tasksSeenBy(DataSource source) throws SQLException {
    try (Connection other = source.getConnection();
        PreparedStatement s = other.prepareStatement("SELECT count(*) FROM task");
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * Notifications already delivered to {@code listener}. A query makes the driver read what the
   * server sent: NOTIFY is delivered at commit, before the committing call returns to the app.
   */
  private static int notifications(Connection listener) throws SQLException {
    listener.createStatement().execute("SELECT 1");
    var pending = listener.unwrap(org.postgresql.PGConnection.class).getNotifications();
    return pending == null ? 0 : pending.length;
  }
}
