package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.testing.FaultProbe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stats that say an origin was scheduled and not visited since take it out of the grab indexes (its
 * rows' {@code awaiting_visit_since}) while the default scheduled cooldown holds that scheduling,
 * read inside the database; and a stats write that fails at any of its steps leaves the stats and
 * their mirror as they were. The store judges "holds" by its own clock, so these schedulings are
 * relative to the real time.
 */
interface StatsAwaitingContract extends FrontierContract {
  Store openProbed(StoreProbe probe);

  Connection rawConnection() throws Exception;

  private OriginVisitStats scheduled(String url, Duration ago) {
    return git(url).withLastScheduled(Instant.now().minus(ago));
  }

  /** How many git rows of {@code url} are out of the grab indexes as awaiting a visit. */
  private int awaiting(String url) throws Exception {
    try (Connection c = rawConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM listed_origin WHERE visit_type = 'git' AND url = ?"
                    + " AND awaiting_visit_since IS NOT NULL")) {
      s.setString(1, url);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  default void onlyASchedulingTheDefaultCooldownHoldsTakesAnOriginOut(boolean listedAfter)
      throws Exception {
    Lister l = lister("github");
    if (!listedAfter) {
      listed(l, NOW, "recent", "old");
    }
    stats(scheduled("recent", Duration.ofHours(1)), scheduled("old", Duration.ofDays(8)));
    if (listedAfter) {
      listed(l, Instant.now(), "recent", "old"); // a new listing copies the url's state
    }

    assertThat(awaiting("recent")).isEqualTo(1);
    assertThat(awaiting("old")).isZero();
  }

  /**
   * The steps of a stats write: SQLite writes the stats, then refreshes their mirror, then commits;
   * PostgreSQL does both in one statement, then commits. A step the dialect does not take is
   * skipped.
   */
  @ParameterizedTest
  @ValueSource(strings = {"visitStatsUpsert", "originMirrorRefresh", FaultProbe.COMMIT})
  default void aStatsWriteThatFailsAtAnyStepLeavesTheStatsAndTheirMirrorAsTheyWere(String step)
      throws Exception {
    listed(lister("github"), NOW, "a");
    List<String> steps = new CopyOnWriteArrayList<>();
    try (Store seeing =
        openProbed(
            new StoreProbe() {
              @Override
              public void beforeStatement(String queryName) {
                steps.add(queryName);
              }
            })) {
      seeing.frontier().visitStatsUpsert(List.of(git("unlisted")));
    }
    assumeTrue(
        step.equals(FaultProbe.COMMIT) || steps.contains(step), step + " is not a step here");

    FaultProbe probe = new FaultProbe(step, Set.of(1), Set.of("visitStatsUpsert"));
    try (Store probed = openProbed(probe)) {
      assertThatThrownBy(
              () ->
                  probed.frontier().visitStatsUpsert(List.of(scheduled("a", Duration.ofHours(1)))))
          .isInstanceOf(FaultProbe.InjectedFault.class);
      assertThat(probe.fired()).isEqualTo(1);
      assertThat(statsOf("a")).as("no stats written").isNull();
      assertThat(awaiting("a")).as("the mirror as it was").isZero();

      probed.frontier().visitStatsUpsert(List.of(scheduled("a", Duration.ofHours(1))));
    }
    assertThat(statsOf("a")).isNotNull();
    assertThat(awaiting("a")).isEqualTo(1);
  }
}
