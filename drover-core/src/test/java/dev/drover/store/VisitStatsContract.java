package dev.drover.store;

import static dev.drover.frontier.LastVisitStatus.FAILED;
import static dev.drover.frontier.LastVisitStatus.NOT_FOUND;
import static dev.drover.frontier.LastVisitStatus.SUCCESSFUL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.frontier.Cooldowns;
import dev.drover.frontier.IngestReport;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import dev.drover.frontier.VisitResult;
import dev.drover.frontier.VisitStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** Visit stats: upsert and reset, and how visit results change them (reference section 4). */
interface VisitStatsContract extends FrontierContract {
  Instant T1 = NOW.minus(Duration.ofDays(30));
  long DAY_SECONDS = 86_400;

  private static VisitResult result(String url, Instant date, VisitStatus status, String snapshot) {
    return new VisitResult(url, GIT, date, status, snapshot);
  }

  private IngestReport ingest(VisitResult... results) {
    return frontier().visitResultsIngest(List.of(results), NO_JITTER);
  }

  private static Instant day(int n) {
    return T1.plus(Duration.ofDays(n));
  }

  // ---- upsert and reset

  @Test
  default void anUpsertNeverErasesWithNullAndGetSkipsMissingOrigins() {
    OriginVisitStats full =
        git("a")
            .withLastVisit(day(2), FAILED)
            .withLastSuccess(day(1), "s1")
            .withLastScheduled(day(2))
            .withQueue(500L, 6)
            .withSuccessiveVisits(2);
    stats(full);
    assertThat(statsOf("a")).isEqualTo(full);

    stats(git("a").withLastScheduled(day(3)));
    assertThat(statsOf("a"))
        .as("only non-null fields replace; offset and successive visits always do")
        .isEqualTo(full.withLastScheduled(day(3)).withQueue(500L, 4).withSuccessiveVisits(1));
    assertThat(
            frontier()
                .visitStatsGet(
                    List.of(
                        new OriginKey("missing", GIT),
                        new OriginKey("a", GIT),
                        new OriginKey("a", "hg"))))
        .extracting(OriginVisitStats::url)
        .containsExactly("a");
  }

  @Test
  default void replaceIsTheExplicitResetAndTheGrabSeesIt() {
    Lister l = lister("github");
    listed(l, T1, "a");
    stats(
        visited("a", NOW.minusSeconds(60), FAILED)
            .withLastScheduled(NOW.minusSeconds(120))
            .withQueue(9L, 7));
    assertThat(grab(VisitPolicy.OLDEST_SCHEDULED_FIRST, 10)).isEmpty();

    frontier().visitStatsReplace(List.of(git("a")));
    assertThat(statsOf("a")).isEqualTo(git("a"));
    assertThat(grab(VisitPolicy.OLDEST_SCHEDULED_FIRST, 10)).containsExactly("a");
  }

  @Test
  default void statsWrittenBeforeOrAfterAListingApplyToEveryListersRow() {
    Lister a = lister("a");
    Lister b = lister("b");
    listed(a, T1, "shared");
    stats(visited("shared", NOW.minusSeconds(60), FAILED));
    listed(b, T1, "shared");
    assertThat(peek(VisitPolicy.OLDEST_SCHEDULED_FIRST, Cooldowns.DEFAULT))
        .as("both rows cool down")
        .isEmpty();
    frontier()
        .visitStatsReplace(List.of(visited("shared", NOW.minus(Duration.ofDays(15)), FAILED)));
    assertThat(peek(VisitPolicy.OLDEST_SCHEDULED_FIRST, Cooldowns.DEFAULT))
        .containsExactly("shared", "shared");
  }

  /**
   * A url's stats stay whole through its first listing, a grab and a second lister's listing,
   * wherever the store keeps them (PostgreSQL moves a listed url's stats into its listed rows).
   */
  @Test
  default void statsFollowAUrlThroughItsListingsAndGrabs() {
    OriginVisitStats early =
        visited("early", NOW.minus(Duration.ofDays(20)), SUCCESSFUL)
            .withQueue(700L, 6)
            .withSuccessiveVisits(3);
    stats(early);
    Lister a = lister("a");
    listed(a, T1, "early", "fresh");
    assertThat(statsOf("early")).as("the first listing keeps them").isEqualTo(early);
    assertThat(statsOf("fresh")).as("a url never visited nor grabbed has none").isNull();

    assertThat(grab(VisitPolicy.OLDEST_SCHEDULED_FIRST, 10))
        .containsExactlyInAnyOrder("fresh", "early");
    assertThat(statsOf("early")).isEqualTo(early.withLastScheduled(NOW));
    assertThat(statsOf("fresh"))
        .as("a grab gives stats, with the default offset, to a url that had none")
        .isEqualTo(git("fresh").withLastScheduled(NOW));

    listed(lister("b"), T1, "early", "fresh");
    assertThat(peek(VisitPolicy.OLDEST_SCHEDULED_FIRST, Cooldowns.DEFAULT))
        .as("the second lister's rows take the grab's scheduling: both still await their visit")
        .isEmpty();
    stats(git("early").withLastVisit(NOW.plusSeconds(60), FAILED).withQueue(null, 2));
    assertThat(statsOf("early"))
        .isEqualTo(
            early
                .withLastScheduled(NOW)
                .withLastVisit(NOW.plusSeconds(60), FAILED)
                .withQueue(700L, 2)
                .withSuccessiveVisits(1));
  }

  // ---- visit results

  @Test
  default void aFirstSuccessfulVisitIsEventfulAndPlacesTheOriginTwoDaysAhead() {
    IngestReport report = ingest(result("a", day(1), VisitStatus.FULL, "s1"));
    assertThat(report).isEqualTo(new IngestReport(1, 0, List.of()));
    assertThat(statsOf("a"))
        .isEqualTo(
            git("a")
                .withLastVisit(day(1), SUCCESSFUL)
                .withLastSuccess(day(1), "s1")
                .withQueue(2 * DAY_SECONDS, 4)
                .withSuccessiveVisits(1));
  }

  @Test
  default void distinctSnapshotsPullTheOriginCloserAndRepeatsPushItAway() {
    ingest(result("a", day(1), VisitStatus.FULL, "s1"));
    ingest(result("a", day(2), VisitStatus.PARTIAL, "s2"));
    OriginVisitStats afterNewSnapshot = statsOf("a");
    assertThat(afterNewSnapshot.nextPositionOffset()).as("eventful: 4 - 2").isEqualTo(2);
    assertThat(afterNewSnapshot.nextVisitQueuePosition()).isEqualTo(4 * DAY_SECONDS);
    ingest(result("a", day(3), VisitStatus.FULL, "s2"));

    OriginVisitStats expected =
        git("a")
            .withLastVisit(day(3), SUCCESSFUL)
            .withLastSuccess(day(3), "s2")
            .withQueue(6 * DAY_SECONDS, 3)
            .withSuccessiveVisits(3);
    assertThat(statsOf("a")).isEqualTo(expected);

    // The same results in one batch build on each other the same way.
    IngestReport batch =
        frontier()
            .visitResultsIngest(
                List.of(
                    result("b", day(1), VisitStatus.FULL, "s1"),
                    result("b", day(2), VisitStatus.PARTIAL, "s2"),
                    result("b", day(3), VisitStatus.FULL, "s2")),
                NO_JITTER);
    assertThat(batch.applied()).isEqualTo(3);
    assertThat(statsOf("b"))
        .isEqualTo(
            new OriginVisitStats(
                "b", GIT, day(3), day(3), SUCCESSFUL, null, "s2", 6 * DAY_SECONDS, 3, 3));
  }

  @Test
  default void threeNotFoundVisitsInARowDisableTheOriginUntilItIsListedAgain() {
    Lister a = lister("a");
    Lister b = lister("b");
    listed(
        T1,
        ListedOrigin.of(a.id(), "gone", GIT),
        ListedOrigin.of(b.id(), "gone", GIT),
        ListedOrigin.of(a.id(), "gone", "hg"));

    assertThat(
            ingest(
                    result("gone", day(1), VisitStatus.NOT_FOUND, null),
                    result("gone", day(2), VisitStatus.NOT_FOUND, null))
                .disabled())
        .isEmpty();
    assertThat(listedOrigin(a, "gone").enabled()).isTrue();
    IngestReport third = ingest(result("gone", day(3), VisitStatus.NOT_FOUND, null));
    assertThat(third.disabled()).containsExactly(new OriginKey("gone", GIT));
    assertThat(listedOrigin(a, "gone").enabled()).isFalse();
    assertThat(listedOrigin(b, "gone").enabled()).as("under every lister").isFalse();
    assertThat(frontier().originList(dev.drover.frontier.OriginQuery.ENABLED.url("gone")).origins())
        .as("another visit type is another origin")
        .extracting(ListedOrigin::visitType)
        .containsExactly("hg");
    assertThat(statsOf("gone"))
        .isEqualTo(
            git("gone")
                .withLastVisit(day(3), NOT_FOUND)
                .withQueue((2 + 4 + 16) * DAY_SECONDS, 6)
                .withSuccessiveVisits(3));

    assertThat(ingest(result("gone", day(4), VisitStatus.NOT_FOUND, null)).disabled())
        .as("already disabled")
        .isEmpty();
    listed(a, NOW, "gone");
    assertThat(listedOrigin(a, "gone").enabled()).as("a listing enables it again").isTrue();
    assertThat(listedOrigin(b, "gone").enabled()).isFalse();
  }

  @Test
  default void threeFailedVisitsInARowDisableTheOriginAndAVisitWithoutSnapshotIsAFailure() {
    Lister l = lister("a");
    listed(l, T1, "broken");
    IngestReport report =
        ingest(
            result("broken", day(1), VisitStatus.FAILED, null),
            result("broken", day(2), VisitStatus.FULL, null),
            result("broken", day(3), VisitStatus.PARTIAL, null));
    assertThat(report.disabled()).containsExactly(new OriginKey("broken", GIT));
    assertThat(statsOf("broken").lastVisitStatus()).isEqualTo(FAILED);
    assertThat(statsOf("broken").successiveVisits()).isEqualTo(3);
    assertThat(statsOf("broken").lastSuccessful()).isNull();
    assertThat(listedOrigin(l, "broken").enabled()).isFalse();
  }

  @Test
  default void failuresOfDifferentKindsDoNotAddUp() {
    Lister l = lister("a");
    listed(l, T1, "flaky");
    assertThat(
            ingest(
                    result("flaky", day(1), VisitStatus.FAILED, null),
                    result("flaky", day(2), VisitStatus.NOT_FOUND, null),
                    result("flaky", day(3), VisitStatus.FAILED, null))
                .disabled())
        .isEmpty();
    assertThat(statsOf("flaky").successiveVisits()).isEqualTo(1);
    ingest(
        result("flaky", day(4), VisitStatus.FAILED, null),
        result("flaky", day(5), VisitStatus.FULL, "s"));
    assertThat(statsOf("flaky").successiveVisits()).as("a success starts a new run").isEqualTo(1);
    assertThat(listedOrigin(l, "flaky").enabled()).isTrue();
  }

  @Test
  default void outOfOrderDuplicateAndUnfinishedResultsChangeNothing() {
    ingest(result("a", day(2), VisitStatus.FULL, "s2"));
    OriginVisitStats after = statsOf("a");

    IngestReport report =
        ingest(
            result("a", day(1), VisitStatus.FULL, "s1"),
            result("a", day(2), VisitStatus.FAILED, null),
            result("a", day(3), VisitStatus.CREATED, null),
            result("a", day(3), VisitStatus.ONGOING, null));
    assertThat(report).isEqualTo(new IngestReport(0, 4, List.of()));
    assertThat(statsOf("a")).isEqualTo(after);

    report =
        ingest(
            result("a", day(4), VisitStatus.FAILED, null),
            result("a", day(3), VisitStatus.FULL, "s3"));
    assertThat(report.applied()).isEqualTo(1);
    assertThat(statsOf("a").lastVisit()).isEqualTo(day(4));
    assertThat(statsOf("a").lastSuccessful())
        .as("the older success came too late")
        .isEqualTo(day(2));
    assertThat(statsOf("a").lastSnapshot()).isEqualTo("s2");
  }

  /**
   * The days table: an origin whose offset becomes k moves days(k) days ahead of its own position;
   * offsets stop at 10, so k = 11 is 10 again.
   */
  @Test
  default void theQueueMovesByTheDaysTable() {
    long[] days = {1, 1, 2, 2, 2, 4, 16, 64, 256, 1024, 4096, 4096};
    long base = 1_000_000;
    List<OriginVisitStats> before = new ArrayList<>();
    List<VisitResult> results = new ArrayList<>();
    for (int k = 0; k <= 11; k++) {
      String url = "offset-" + k;
      if (k == 0) {
        // An eventful visit takes 2 off: from 1 that clamps to 0.
        before.add(visited(url, day(1), SUCCESSFUL).withQueue(base, 1));
        results.add(result(url, day(2), VisitStatus.FULL, "another snapshot"));
      } else {
        before.add(visited(url, day(1), FAILED).withQueue(base, k - 1));
        results.add(result(url, day(2), VisitStatus.FAILED, null));
      }
    }
    frontier().visitStatsUpsert(before);
    frontier().visitResultsIngest(results, NO_JITTER);
    for (int k = 0; k <= 11; k++) {
      OriginVisitStats s = statsOf("offset-" + k);
      assertThat(s.nextPositionOffset()).as("offset %d", k).isEqualTo(Math.min(k, 10));
      assertThat(s.nextVisitQueuePosition())
          .as("offset %d", k)
          .isEqualTo(base + days[k] * DAY_SECONDS);
    }
  }

  @Test
  default void anOriginWithoutItsOwnPositionStartsFromTheVisitTypesPosition() {
    Lister l = lister("github");
    listed(l, T1, "placed");
    stats(git("placed").withQueue(1000L, 4), git("zero").withQueue(0L, 4));
    grab(VisitPolicy.ORIGINS_WITHOUT_LAST_UPDATE, 10);
    assertThat(frontier().visitQueuePosition(GIT)).isEqualTo(1000);

    ingest(
        result("unplaced", day(1), VisitStatus.FULL, "s"),
        result("zero", day(1), VisitStatus.FULL, "s"));
    assertThat(statsOf("unplaced").nextVisitQueuePosition()).isEqualTo(1000 + 2 * DAY_SECONDS);
    assertThat(statsOf("zero").nextVisitQueuePosition())
        .as("as the reference: 0 counts as unset")
        .isEqualTo(1000 + 2 * DAY_SECONDS);
  }

  @Test
  default void theJitterIsTenPercentEitherWayAndFollowsTheGivenRandom() {
    frontier()
        .visitResultsIngest(
            List.of(result("low", day(1), VisitStatus.FULL, "s")),
            FrontierContract.fixedRandom(0.0));
    frontier()
        .visitResultsIngest(
            List.of(result("high", day(1), VisitStatus.FULL, "s")),
            FrontierContract.fixedRandom(0.75));
    assertThat(statsOf("low").nextVisitQueuePosition()).as("u = -10 %").isEqualTo(155_520);
    assertThat(statsOf("high").nextVisitQueuePosition()).as("u = +5 %").isEqualTo(181_440);

    List<VisitResult> batch = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      batch.add(result("r" + i, day(1), VisitStatus.FULL, "s"));
    }
    frontier().visitResultsIngest(batch, new SplittableRandom(42));
    List<Long> first = positions(50);
    assertThat(first).allSatisfy(p -> assertThat(p).isBetween(155_520L, 190_080L));
    assertThat(new HashSet<>(first)).as("the jitter spreads them").hasSizeGreaterThan(40);

    // The same seed gives the same positions.
    List<VisitResult> again =
        batch.stream().map(r -> result(r.url(), day(2), VisitStatus.FULL, "s")).toList();
    frontier().visitStatsReplace(batch.stream().map(r -> git(r.url())).toList());
    RandomGenerator seeded = new SplittableRandom(42);
    frontier().visitResultsIngest(again, seeded);
    assertThat(positions(50)).isEqualTo(first);
  }

  private List<Long> positions(int n) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(statsOf("r" + i).nextVisitQueuePosition());
    }
    return out;
  }

  @Test
  default void aVisitTakesAnOriginOutOfNeverVisitedAndIntoTheLagOrder() {
    Lister l = lister("github");
    listed(T1, ListedOrigin.of(l.id(), "a", GIT).withLastUpdate(day(5)));
    VisitRequest never =
        VisitRequest.builder(GIT, 10, VisitPolicy.NEVER_VISITED_OLDEST_UPDATE_FIRST)
            .dryRun(true)
            .build();
    VisitRequest lag =
        VisitRequest.builder(GIT, 10, VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG)
            .dryRun(true)
            .build();
    assertThat(grab(never)).containsExactly("a");
    ingest(result("a", day(1), VisitStatus.FULL, "s"));
    assertThat(grab(never)).isEmpty();
    assertThat(grab(lag)).containsExactly("a");
  }
}
