package dev.drover.store;

import static dev.drover.frontier.LastVisitStatus.FAILED;
import static dev.drover.frontier.LastVisitStatus.NOT_FOUND;
import static dev.drover.frontier.LastVisitStatus.SUCCESSFUL;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.VisitQueue;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Visit runs feed visit stats by themselves: when a run of a {@code load-<visit type>} task ends,
 * its outcome is ingested as a visit result in the same transaction (reference section 4).
 */
interface VisitOutcomeContract extends FrontierContract {
  Duration VISIT_LEASE = Duration.ofMinutes(5);
  long DAY_S = 86_400;

  private void visitType(String type) {
    store().taskTypeCreate(TaskType.builder(type).build());
  }

  /** Creates a visit task due at {@code at}, claims and begins it; returns the claim. */
  private Claim claimVisit(String type, Map<String, ?> kwargs, Instant at) {
    store()
        .taskCreate(
            List.of(NewTask.oneshot(type, TaskArguments.of(null, kwargs)).withNextRun(at)), at);
    TaskType taskType = store().taskTypeGet(type).orElseThrow();
    List<Claim> claims = Passes.claimStarted(store(), taskType, "runner", at, VISIT_LEASE, 1);
    assertThat(claims).hasSize(1);
    return claims.get(0);
  }

  /**
   * Runs one visit of {@code url} that ends at {@code at} with {@code status} and {@code result}.
   */
  private void visit(String url, Instant at, TaskRunStatus status, ObjectNode result) {
    Claim c =
        claimVisit("load-git", Map.of("url", url, "lister_name", "github"), at.minusSeconds(30));
    ObjectNode meta = Json.object();
    meta.set("result", result == null ? Json.object() : result);
    assertThat(
            Passes.complete(
                store(), "runner", List.of(new Completion(c.lease(), status, meta, null, c)), at))
        .isEmpty();
  }

  private static ObjectNode snapshot(String id) {
    ObjectNode r = Json.object();
    r.put("snapshot", id);
    return r;
  }

  private static ObjectNode notFound() {
    ObjectNode r = Json.object();
    r.put("not_found", true);
    return r;
  }

  private static Instant at(int day) {
    return NOW.plus(Duration.ofDays(day));
  }

  @Test
  default void anEndedVisitRunUpdatesTheStatsOfItsUrlAndVisitTypeDatedByItsEnd() {
    visitType("load-git");
    listed(lister("github"), NOW.minus(DAY1), "https://a");
    visit("https://a", at(0), TaskRunStatus.EVENTFUL, snapshot("s1"));
    OriginVisitStats first = statsOf("https://a");
    assertThat(first.lastVisit()).isEqualTo(at(0));
    assertThat(first.lastVisitStatus()).isEqualTo(SUCCESSFUL);
    assertThat(first.lastSuccessful()).isEqualTo(at(0));
    assertThat(first.lastSnapshot()).isEqualTo("s1");
    assertThat(first.nextPositionOffset())
        .as("the first visit keeps the offset")
        .isEqualTo(VisitQueue.DEFAULT_OFFSET);
    assertThat(first.nextVisitQueuePosition())
        .as("days(4) = 2 days from position 0, ±10 %")
        .isBetween((long) (2 * DAY_S * 0.9), (long) (2 * DAY_S * 1.1));

    visit("https://a", at(1), TaskRunStatus.UNEVENTFUL, snapshot("s1"));
    OriginVisitStats second = statsOf("https://a");
    assertThat(second.nextPositionOffset()).as("same snapshot: uneventful, +1").isEqualTo(5);
    assertThat(second.successiveVisits()).isEqualTo(2);
    assertThat(second.nextVisitQueuePosition() - first.nextVisitQueuePosition())
        .as("days(5) = 4 days further")
        .isBetween((long) (4 * DAY_S * 0.9), (long) (4 * DAY_S * 1.1));

    visit("https://a", at(2), TaskRunStatus.EVENTFUL, snapshot("s2"));
    assertThat(statsOf("https://a").nextPositionOffset())
        .as("new snapshot: eventful, -2")
        .isEqualTo(3);
    assertThat(statsOf("https://a").lastSnapshot()).isEqualTo("s2");
  }

  @Test
  default void withoutASnapshotAnEventfulRunArchivedSomethingNewAndAnUneventfulOneDidNot() {
    visitType("load-git");
    visit("https://a", at(0), TaskRunStatus.EVENTFUL, null);
    String synthetic = statsOf("https://a").lastSnapshot();
    assertThat(synthetic).startsWith("run:");
    visit("https://a", at(1), TaskRunStatus.UNEVENTFUL, null);
    assertThat(statsOf("https://a").lastSnapshot()).isEqualTo(synthetic);
    assertThat(statsOf("https://a").nextPositionOffset()).isEqualTo(5);
    visit("https://a", at(2), TaskRunStatus.EVENTFUL, null);
    assertThat(statsOf("https://a").lastSnapshot()).isNotEqualTo(synthetic);
    assertThat(statsOf("https://a").nextPositionOffset()).isEqualTo(3);
  }

  @Test
  default void threeFailedOrNotFoundVisitsInARowDisableTheOrigin() {
    visitType("load-git");
    Lister l = lister("github");
    listed(l, NOW.minus(DAY1), "https://gone", "https://flaky");
    for (int d = 0; d < 3; d++) {
      visit("https://gone", at(d), TaskRunStatus.PERMFAILED, notFound());
      visit("https://flaky", at(d), TaskRunStatus.FAILED, null);
    }
    assertThat(statsOf("https://gone").lastVisitStatus()).isEqualTo(NOT_FOUND);
    assertThat(statsOf("https://gone").successiveVisits()).isEqualTo(3);
    assertThat(statsOf("https://flaky").lastVisitStatus()).isEqualTo(FAILED);
    assertThat(listedOrigin(l, "https://gone").enabled()).isFalse();
    assertThat(listedOrigin(l, "https://flaky").enabled()).isFalse();
  }

  @Test
  default void aPermanentFailureThatIsNotNotFoundIsAFailedVisit() {
    visitType("load-git");
    ObjectNode r = Json.object();
    r.put("error", "bad repository");
    visit("https://a", at(0), TaskRunStatus.PERMFAILED, r);
    assertThat(statsOf("https://a").lastVisitStatus()).isEqualTo(FAILED);
  }

  @Test
  default void aRescuedRunIsNoVisit() {
    visitType("load-git");
    claimVisit("load-git", Map.of("url", "https://a"), at(0));
    assertThat(store().taskRescueExpired(at(0).plus(VISIT_LEASE).plusSeconds(1), 10)).hasSize(1);
    assertThat(statsOf("https://a")).isNull();
  }

  @Test
  default void aReleasedRunAndARescuedQueuedRunAreNoVisits() {
    visitType("load-git");
    Claim b = claimVisit("load-git", Map.of("url", "https://b"), at(0));
    assertThat(store().taskRelease("runner", List.of(b.lease()), at(0).plusSeconds(1)))
        .isEqualTo(1);
    assertThat(statsOf("https://b")).as("released").isNull();

    TaskArguments a = TaskArguments.of(null, Map.of("url", "https://a"));
    store().taskCreate(List.of(NewTask.oneshot("load-git", a).withNextRun(at(0))), at(0));
    TaskType type = store().taskTypeGet("load-git").orElseThrow();
    assertThat(Passes.claim(store(), type, "runner", at(0).plusSeconds(2), VISIT_LEASE, 2))
        .hasSize(2);
    assertThat(store().taskRescueExpired(at(0).plus(VISIT_LEASE).plusSeconds(3), 10)).hasSize(2);
    assertThat(statsOf("https://a")).as("rescued before it began").isNull();
    assertThat(statsOf("https://b")).as("rescued before it began").isNull();
  }

  @Test
  default void aReportedEndIsIngestedTooAndAnOlderOneIsIgnored() {
    visitType("load-git");
    visit("https://a", at(5), TaskRunStatus.EVENTFUL, snapshot("s5"));
    Claim late = claimVisit("load-git", Map.of("url", "https://a"), at(1));
    ObjectNode meta = Json.object();
    meta.set("result", snapshot("s1"));
    assertThat(store().taskRunEnd(late.run().backendId(), TaskRunStatus.EVENTFUL, meta, at(2)))
        .isPresent();
    assertThat(statsOf("https://a").lastSnapshot())
        .as("older than the last visit: ignored")
        .isEqualTo("s5");
    assertThat(statsOf("https://a").lastVisit()).isEqualTo(at(5));

    Claim next = claimVisit("load-git", Map.of("url", "https://a"), at(6));
    meta.set("result", snapshot("s7"));
    store().taskRunEnd(next.run().backendId(), TaskRunStatus.EVENTFUL, meta, at(7));
    assertThat(statsOf("https://a").lastSnapshot()).isEqualTo("s7");
  }

  @Test
  default void runsOfOtherTypesOrWithoutAUrlAreNoVisits() {
    visitType("load-git");
    visitType("mirror");
    visitType("load-");
    for (String type : List.of("mirror", "load-")) {
      Claim c = claimVisit(type, Map.of("url", "https://a"), at(0));
      Passes.complete(
          store(),
          "runner",
          List.of(new Completion(c.lease(), TaskRunStatus.EVENTFUL, Json.object())),
          at(0));
    }
    Claim c = claimVisit("load-git", Map.of("path", "/srv/a"), at(0));
    Passes.complete(
        store(),
        "runner",
        List.of(new Completion(c.lease(), TaskRunStatus.EVENTFUL, Json.object())),
        at(0));
    assertThat(statsOf("https://a")).isNull();
  }

  @Test
  default void visitsOfSeveralTypesEndInOneCompletionBatch() {
    visitType("load-git");
    visitType("load-hg");
    Claim hg = claimVisit("load-hg", Map.of("url", "https://a"), at(0));
    Claim git = claimVisit("load-git", Map.of("url", "https://a"), at(0));
    ObjectNode meta = Json.object();
    meta.set("result", snapshot("s"));
    Passes.complete(
        store(),
        "runner",
        List.of(
            new Completion(hg.lease(), TaskRunStatus.EVENTFUL, meta),
            new Completion(git.lease(), TaskRunStatus.FAILED, Json.object())),
        at(1));
    assertThat(
            store()
                .frontier()
                .visitStatsGet(List.of(new dev.drover.frontier.OriginKey("https://a", "hg"))))
        .singleElement()
        .extracting(OriginVisitStats::lastVisitStatus)
        .isEqualTo(SUCCESSFUL);
    assertThat(statsOf("https://a").lastVisitStatus()).isEqualTo(FAILED);
  }
}
