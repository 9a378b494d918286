package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.frontier.Cooldowns;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SQLite takes a partial index only when the query repeats every term of its predicate: each grab
 * policy must walk its own index (V016 added {@code awaiting_visit_since IS NULL} to all six), on a
 * store where some origins await a visit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqliteFrontierPlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  @TempDir static Path dir;
  private SqlitePlanStore db;
  private Store store;
  private Lister lister;

  @BeforeAll
  void fill() {
    db = new SqlitePlanStore(dir);
    store = db.store;
    lister = store.frontier().listerGetOrCreate("forge", "", null, NOW);
    List<ListedOrigin> origins = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      ListedOrigin o = ListedOrigin.of(lister.id(), "https://example.org/r/" + i, "git");
      origins.add(i % 5 == 1 ? o : o.withLastUpdate(NOW.minus(Duration.ofHours(i))));
    }
    store.frontier().originRecord(origins, NOW.minus(Duration.ofDays(30)));
    store
        .frontier()
        .originGrabNextVisits(
            VisitRequest.of("git", 300, VisitPolicy.OLDEST_SCHEDULED_FIRST),
            NOW.minus(Duration.ofDays(1)));
  }

  @AfterAll
  void close() {
    db.close();
  }

  /** The fill's grab handed out 300 origins: each is marked, and so out of every grab index. */
  @Test
  void aGrabMarksWhatItHandsOutAsAwaitingItsVisit() throws Exception {
    try (Connection c = store.dataSource().orElseThrow().getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*), count(DISTINCT last_scheduled), min(awaiting_visit_since = last_scheduled)"
                    + " FROM listed_origin WHERE awaiting_visit_since IS NOT NULL")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(300);
      assertThat(rs.getLong(2)).isEqualTo(1);
      assertThat(rs.getInt(3)).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(VisitPolicy.class)
  void eachPolicyWalksItsOwnIndex(VisitPolicy policy) {
    for (Cooldowns cooldowns : List.of(Cooldowns.DEFAULT, Cooldowns.NONE)) {
      VisitRequest.Builder r = VisitRequest.builder("git", 100, policy).cooldowns(cooldowns);
      if (policy == VisitPolicy.FIRST_VISITS_AFTER_LISTING) {
        r.lister(lister.id());
      }
      String plan = String.join("\n", store.frontier().originGrabPlan(r.build(), NOW));
      assertThat(plan)
          .as(plan)
          .contains("USING INDEX " + PostgresFrontierPlanTest.indexOf(policy) + " ")
          .doesNotContain("SCAN listed_origin");
    }
  }

  /**
   * The statements that read and write visit stats (V029: a listed url's stats are in its listed
   * rows, the others' in origin_visit_stats) find their rows by url, one index search per table
   * they touch, and never read a table whole.
   */
  @ParameterizedTest
  @EnumSource(
      value = SqlQuery.class,
      names = {
        "ORIGIN_RECORD",
        "ORIGIN_STATS_MOVED",
        "ORIGIN_STATS_REPLACE",
        "ORIGIN_STATS_UPSERT",
        "VISIT_MARK_SCHEDULED",
        "VISIT_STATS_GET",
        "VISIT_STATS_REPLACE",
        "VISIT_STATS_UPSERT"
      })
  void statsStatementsFindTheirRowsByUrl(SqlQuery query) {
    String text = new SqlFiles(Dialect.SQLITE).get(query);
    UnaryOperator<Query> bind =
        q -> {
          Matcher parameter = Pattern.compile("(?<!:):([a-z_]+)").matcher(text);
          while (parameter.find()) {
            String name = parameter.group(1);
            switch (name) {
              case "url" -> q.bind(name, "https://example.org/r/5");
              case "visit_type" -> q.bind(name, "git");
              case "lister_id" -> q.bind(name, lister.id().toString());
              default -> q.bindNull(name, Types.NULL);
            }
          }
          if (text.contains("<urls>")) {
            q.bindList("urls", List.of("https://example.org/r/5", "https://example.org/r/6"));
          }
          return q;
        };
    String plan = String.join("\n", db.plan(query, bind));
    String byUrl = "INDEX listed_origin_by_url (url=? AND visit_type=?)";
    String statsByKey = "INDEX sqlite_autoindex_origin_visit_stats_1 (url=? AND visit_type=?)";
    List<String> searches =
        switch (query) {
          case ORIGIN_RECORD, VISIT_STATS_GET -> List.of(byUrl, statsByKey);
          case ORIGIN_STATS_MOVED -> List.of(statsByKey);
          // VISIT_STATS_*: whether any lister lists the url, before its stats row is written.
          default -> List.of(byUrl);
        };
    assertThat(plan)
        .as(query + "\n" + plan)
        .contains(searches)
        .doesNotContain("SCAN listed_origin")
        .doesNotContain("SCAN origin_visit_stats");
  }

  /** A sample reads its blocks by rowid ranges; a row sample would scan the whole table. */
  @Test
  void aSampledGrabReadsItsBlocksByRowidRange() {
    VisitRequest r =
        VisitRequest.builder("git", 100, VisitPolicy.OLDEST_SCHEDULED_FIRST)
            .tablesample(10.0)
            .build();
    String plan = String.join("\n", store.frontier().originGrabPlan(r, NOW));
    assertThat(plan)
        .as(plan)
        .contains("SEARCH listed_origin USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)")
        .doesNotContain("SCAN listed_origin");
  }
}
