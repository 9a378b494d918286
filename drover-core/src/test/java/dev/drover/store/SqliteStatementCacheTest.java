package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** Prepared statements are reused per connection without mixing up their parameters or results. */
class SqliteStatementCacheTest {
  @TempDir Path dir;
  private HikariDataSource pool;
  private Jdbi jdbi;

  @BeforeEach
  void open() {
    SQLiteDataSource source = new SQLiteDataSource();
    source.setUrl("jdbc:sqlite:" + dir.resolve("cache.db"));
    HikariConfig config = new HikariConfig();
    config.setDataSource(source);
    config.setMaximumPoolSize(1);
    pool = new HikariDataSource(config);
    jdbi = Jdbi.create(pool);
    jdbi.setStatementBuilderFactory(new SqliteStatementCache());
    jdbi.useHandle(
        h -> {
          h.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)");
          h.execute("INSERT INTO item (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        });
  }

  @AfterEach
  void close() {
    pool.close();
  }

  @Test
  void theSameTextIsPreparedOnceAcrossHandlesOfTheSameConnection() {
    List<PreparedStatement> used = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (long id = 1; id <= 3; id++) {
      long current = id;
      names.add(jdbi.withHandle(h -> byId(h, current, used).mapTo(String.class).one()));
    }
    assertThat(names).containsExactly("a", "b", "c");
    assertThat(used).hasSize(3);
    assertThat(used.get(1)).isSameAs(used.get(0));
    assertThat(used.get(2)).isSameAs(used.get(0));
  }

  @Test
  void aResultLeftUnreadDoesNotLeakIntoTheNextUse() {
    List<PreparedStatement> used = new ArrayList<>();
    jdbi.useHandle(
        h -> {
          assertThat(all(h, used).mapTo(String.class).findFirst()).contains("a");
          assertThat(all(h, used).mapTo(String.class).list()).containsExactly("a", "b", "c");
        });
    assertThat(used.get(1)).isSameAs(used.get(0));
  }

  @Test
  void theSameTextOpenTwiceAtOnceGetsTwoStatements() {
    List<PreparedStatement> used = new ArrayList<>();
    List<String> pairs =
        jdbi.withHandle(
            h ->
                all(h, used).mapTo(String.class).stream()
                    .map(
                        outer -> outer + all(h, used).mapTo(String.class).findFirst().orElseThrow())
                    .toList());
    assertThat(pairs).containsExactly("aa", "ba", "ca");
    // While the outer query is open the inner one runs on a statement of its own, and reuses it.
    // (By the last row Jdbi has closed the outer query, so the last inner run may take either.)
    assertThat(used).hasSize(4);
    assertThat(used.get(1)).isNotSameAs(used.get(0));
    assertThat(used.get(2)).isSameAs(used.get(1));
    assertThat(used.get(3)).isIn(used.get(0), used.get(1));
  }

  @Test
  void aWriteThroughACachedStatementCommitsAndRollsBackAsUsual() {
    for (int i = 0; i < 2; i++) {
      int id = 10 + i;
      jdbi.useTransaction(
          h ->
              h.createUpdate("INSERT INTO item (id, name) VALUES (:id, 'x')")
                  .bind("id", id)
                  .execute());
    }
    try {
      jdbi.useTransaction(
          h -> {
            h.createUpdate("INSERT INTO item (id, name) VALUES (:id, 'x')")
                .bind("id", 12)
                .execute();
            throw new IllegalStateException("roll back");
          });
    } catch (IllegalStateException expected) {
      // the insert of id 12 is undone
    }
    List<Long> written =
        jdbi.withHandle(
            h -> h.createQuery("SELECT id FROM item WHERE name = 'x'").mapTo(Long.class).list());
    assertThat(written).containsExactly(10L, 11L);
  }

  private static Query byId(Handle h, long id, List<PreparedStatement> used) {
    return h.createQuery("SELECT name FROM item WHERE id = :id")
        .bind("id", id)
        .addCustomizer(recordInto(used));
  }

  private static Query all(Handle h, List<PreparedStatement> used) {
    return h.createQuery("SELECT name FROM item ORDER BY id").addCustomizer(recordInto(used));
  }

  private static StatementCustomizer recordInto(List<PreparedStatement> used) {
    return new StatementCustomizer() {
      @Override
      public void beforeExecution(PreparedStatement stmt, StatementContext ctx)
          throws SQLException {
        used.add(stmt);
      }
    };
  }
}
