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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
  private Store store;
  private Lister lister;

  @BeforeAll
  void fill() {
    store = Stores.open(StoreLocation.dataDir(dir));
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
    store.close();
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
