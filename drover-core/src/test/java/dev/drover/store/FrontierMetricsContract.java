package dev.drover.store;

import static dev.drover.frontier.LastVisitStatus.SUCCESSFUL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.SchedulerMetrics;
import dev.drover.frontier.VisitResult;
import dev.drover.frontier.VisitStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Metrics per (lister, visit type): known, enabled, never visited, with pending changes. */
interface FrontierMetricsContract extends FrontierContract {

  private static Instant daysAgo(int n) {
    return NOW.minus(Duration.ofDays(n));
  }

  @Test
  default void metricsCountEachListersOriginsPerVisitType() {
    Lister a = lister("a");
    Lister b = lister("b");
    listed(
        daysAgo(60),
        ListedOrigin.of(a.id(), "never", GIT).withLastUpdate(daysAgo(3)),
        ListedOrigin.of(a.id(), "pending", GIT).withLastUpdate(daysAgo(2)),
        ListedOrigin.of(a.id(), "up-to-date", GIT).withLastUpdate(daysAgo(20)),
        ListedOrigin.of(a.id(), "disabled", GIT).withEnabled(false),
        ListedOrigin.of(a.id(), "no-update", GIT),
        ListedOrigin.of(a.id(), "hg-repo", "hg"),
        ListedOrigin.of(b.id(), "pending", GIT).withLastUpdate(daysAgo(2)));
    stats(
        visited("pending", daysAgo(10), SUCCESSFUL),
        visited("up-to-date", daysAgo(10), SUCCESSFUL),
        visited("no-update", daysAgo(10), SUCCESSFUL));

    assertThat(frontier().metricsGet(null, null)).isEmpty();
    assertThat(frontier().metricsUpdate(a.id(), NOW))
        .containsExactlyInAnyOrder(
            new SchedulerMetrics(a.id(), GIT, NOW, 5, 4, 1, 1),
            new SchedulerMetrics(a.id(), "hg", NOW, 1, 1, 1, 0));
    assertThat(frontier().metricsGet(b.id(), null)).as("only the lister asked for").isEmpty();

    List<SchedulerMetrics> all = frontier().metricsUpdate(null, NOW.plusSeconds(1));
    assertThat(all)
        .hasSize(3)
        .allSatisfy(m -> assertThat(m.lastUpdate()).isEqualTo(NOW.plusSeconds(1)));
    assertThat(frontier().metricsGet(b.id(), GIT))
        .containsExactly(new SchedulerMetrics(b.id(), GIT, NOW.plusSeconds(1), 1, 1, 0, 1));
    assertThat(frontier().metricsGet(null, "hg"))
        .extracting(SchedulerMetrics::listerId)
        .containsExactly(a.id());
  }

  @Test
  default void metricsFollowVisitsListingsAndDisabling() {
    Lister a = lister("a");
    listed(
        daysAgo(60),
        ListedOrigin.of(a.id(), "x", GIT).withLastUpdate(daysAgo(5)),
        ListedOrigin.of(a.id(), "y", GIT));
    assertThat(frontier().metricsUpdate(a.id(), NOW))
        .containsExactly(new SchedulerMetrics(a.id(), GIT, NOW, 2, 2, 2, 0));

    // x is visited before its last update: visited, with changes pending; y is gone.
    frontier()
        .visitResultsIngest(
            List.of(
                new VisitResult("x", GIT, daysAgo(9), VisitStatus.FULL, "s"),
                new VisitResult("y", GIT, daysAgo(9), VisitStatus.NOT_FOUND, null),
                new VisitResult("y", GIT, daysAgo(8), VisitStatus.NOT_FOUND, null),
                new VisitResult("y", GIT, daysAgo(7), VisitStatus.NOT_FOUND, null)),
            NO_JITTER);
    assertThat(frontier().metricsUpdate(a.id(), NOW))
        .containsExactly(new SchedulerMetrics(a.id(), GIT, NOW, 2, 1, 0, 1));

    // A new listing says x changed before the visit, and brings y back.
    listed(
        NOW,
        ListedOrigin.of(a.id(), "x", GIT).withLastUpdate(daysAgo(10)),
        ListedOrigin.of(a.id(), "y", GIT));
    assertThat(frontier().metricsUpdate(a.id(), NOW))
        .containsExactly(new SchedulerMetrics(a.id(), GIT, NOW, 2, 2, 1, 0));
  }

  @Test
  default void metricsOfAnUnknownListerAreRefused() {
    UUID ghost = UUID.randomUUID();
    assertThatThrownBy(() -> frontier().metricsUpdate(ghost, NOW))
        .isInstanceOf(ValidationException.class)
        .hasMessage("lister_id: unknown lister " + ghost);
    assertThat(frontier().metricsGet(ghost, null)).isEmpty();
  }
}
