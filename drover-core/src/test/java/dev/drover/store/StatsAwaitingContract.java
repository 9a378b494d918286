package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.frontier.LastVisitStatus;
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
 * and stats of a failed or not-found visit (its rows' {@code cooling_since}) while the default
 * cooldown of that status holds the visit, read inside the database; and a stats write that fails
 * at any of its steps leaves the stats and their mirror as they were. The store judges "holds" by
 * its own clock, so these times are relative to the real time.
 */
interface StatsAwaitingContract extends FrontierContract {
  Store openProbed(StoreProbe probe);

  Connection rawConnection() throws Exception;

  private OriginVisitStats scheduled(String url, Duration ago) {
    return git(url).withLastScheduled(Instant.now().minus(ago));
  }

  private OriginVisitStats visitedAgo(String url, Duration ago, LastVisitStatus status) {
    return git(url).withLastVisit(Instant.now().minus(ago), status);
  }

  /** How many git rows of {@code url} are out of the grab indexes as awaiting a visit. */
  private int awaiting(String url) throws Exception {
    return rowsWith(url, "awaiting_visit_since");
  }

  /** How many git rows of {@code url} are out of the grab indexes as cooling after a visit. */
  private int cooling(String url) throws Exception {
    return rowsWith(url, "cooling_since");
  }

  private int rowsWith(String url, String column) throws Exception {
    try (Connection c = rawConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM listed_origin WHERE visit_type = 'git' AND url = ?"
                    + " AND "
                    + column
                    + " IS NOT NULL")) {
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
   * The default cooldowns: 14 days after a failed visit, 31 after one that found nothing. A second
   * lister's rows take the url's state as the first lister's did.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  default void onlyAVisitItsStatusCooldownHoldsTakesAnOriginOut(boolean listedAfter)
      throws Exception {
    String[] urls = {"failed-13d", "failed-15d", "not-found-30d", "not-found-32d"};
    if (!listedAfter) {
      listed(lister("github"), NOW, urls);
    }
    stats(
        visitedAgo("failed-13d", Duration.ofDays(13), LastVisitStatus.FAILED),
        visitedAgo("failed-15d", Duration.ofDays(15), LastVisitStatus.FAILED),
        visitedAgo("not-found-30d", Duration.ofDays(30), LastVisitStatus.NOT_FOUND),
        visitedAgo("not-found-32d", Duration.ofDays(32), LastVisitStatus.NOT_FOUND));
    if (listedAfter) {
      listed(lister("github"), Instant.now(), urls);
    }
    listed(lister("gitlab"), Instant.now(), urls);

    assertThat(cooling("failed-13d")).isEqualTo(2);
    assertThat(cooling("failed-15d")).isZero();
    assertThat(cooling("not-found-30d")).isEqualTo(2);
    assertThat(cooling("not-found-32d")).isZero();
  }

  /**
   * The steps of a stats write: SQLite writes the listed urls' rows, then the stats rows of the
   * urls no lister lists, then commits; PostgreSQL writes both in one statement, then commits. A
   * step the dialect does not take is skipped.
   */
  @ParameterizedTest
  @ValueSource(strings = {"originStatsUpsert", "visitStatsUpsert", FaultProbe.COMMIT})
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
