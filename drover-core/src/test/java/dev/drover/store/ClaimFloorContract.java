package dev.drover.store;

import static dev.drover.store.LeaseContract.LEASE;
import static dev.drover.store.LeaseContract.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import dev.drover.testing.FaultProbe;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Claims of a backlog start past what the process claimed last on PostgreSQL ({@link ClaimFloors});
 * whatever the database, no due task is left behind for longer than {@link
 * ClaimFloors#FULL_SCAN_EVERY}, and a claim that failed moves nothing.
 */
interface ClaimFloorContract {
  Store store();

  /** Another store on the same database, whose statements and commits {@code probe} sees. */
  Store openProbed(StoreProbe probe);

  /** A "work" type and {@code n} tasks due at T0 less n..1 seconds, with arguments 0..n-1. */
  private static TaskType backlog(Store s, int n) {
    s.taskTypeCreate(TaskType.builder("work").build());
    s.taskCreate(
        IntStream.range(0, n)
            .mapToObj(
                i ->
                    NewTask.oneshot("work", TaskArguments.of(List.of(i), null))
                        .withNextRun(T0.minusSeconds(n - i)))
            .toList(),
        T0);
    return s.taskTypeGet("work").orElseThrow();
  }

  /** A task due an hour before the backlog: behind everything claimed so far. */
  private static long late(Store s) {
    return s.taskCreate(
            List.of(
                NewTask.oneshot("work", TaskArguments.of(List.of("late"), null))
                    .withNextRun(T0.minus(Duration.ofHours(1)))),
            T0)
        .get(0)
        .id();
  }

  /** Each claimed task's first argument, as text. */
  private static List<String> arguments(List<Claim> claims) {
    return claims.stream().map(c -> c.task().arguments().args().get(0).asText()).toList();
  }

  private static List<Long> ids(List<Claim> claims) {
    return claims.stream().map(c -> c.task().id()).toList();
  }

  @Test
  default void aTaskDueBehindTheClaimsOfABacklogIsClaimedWithinTheirPeriod() {
    Store s = store();
    TaskType work = backlog(s, 6);
    List<Long> claimed = new ArrayList<>(ids(Passes.claim(s, work, "r", T0, LEASE, 2)));
    long late = late(s);
    claimed.addAll(ids(Passes.claim(s, work, "r", T0, LEASE, 2)));
    claimed.addAll(ids(Passes.claim(s, work, "r", T0.plus(ClaimFloors.FULL_SCAN_EVERY), LEASE, 2)));
    assertThat(claimed)
        .as("claimed by the claim a period after the first, at the latest")
        .contains(late)
        .doesNotHaveDuplicates()
        .hasSize(6);
    assertThat(Passes.claim(s, work, "r", T0.plus(ClaimFloors.FULL_SCAN_EVERY), LEASE, 5))
        .as("the rest, each once")
        .hasSize(1)
        .extracting(c -> c.task().id())
        .doesNotContainAnyElementsOf(claimed);
  }

  @Test
  default void aClaimThatFindsTooFewPastItsFloorsReadsFromTheStart() {
    Store s = store();
    TaskType work = backlog(s, 3);
    assertThat(arguments(Passes.claim(s, work, "r", T0, LEASE, 2))).containsExactly("0", "1");
    long late = late(s);
    assertThat(ids(Passes.claim(s, work, "r", T0, LEASE, 5)))
        .as("the backlog's last task and the late one, at once")
        .hasSize(2)
        .contains(late);
  }

  @Test
  default void aClaimOfABacklogStartsPastTheLastTaskItTookOnPostgres() {
    assumeTrue(store().dialect() == Dialect.POSTGRESQL, "SQLite keeps no floors");
    Store s = store();
    TaskType work = backlog(s, 6);
    Passes.claim(s, work, "r", T0, LEASE, 2);
    late(s);
    assertThat(arguments(Passes.claim(s, work, "r", T0, LEASE, 2)))
        .as("past the floor: the late task waits")
        .containsExactly("2", "3");
    assertThat(arguments(Passes.claim(s, work, "r", T0.plusMillis(999), LEASE, 2)))
        .containsExactly("4", "5");
    assertThat(arguments(Passes.claim(s, work, "r", T0.plusSeconds(1), LEASE, 2)))
        .as("a period after the claim that read from the start")
        .containsExactly("late");
  }

  @Test
  default void aFailedClaimLeavesTheFloorsWhereTheyWere() {
    assumeTrue(store().dialect() == Dialect.POSTGRESQL, "SQLite keeps no floors");
    Store s = store();
    TaskType work = backlog(s, 8);
    FaultProbe probe = new FaultProbe(FaultProbe.COMMIT, Set.of(2), Set.of("taskClaim"));
    try (Store probed = openProbed(probe)) {
      // The second claim reads tasks 2 and 3 past the first's floor and claims them, and its
      // commit fails.
      assertThat(arguments(Passes.claim(probed, work, "r", T0, LEASE, 2)))
          .containsExactly("0", "1");
      assertThatThrownBy(() -> Passes.claim(probed, work, "r", T0, LEASE, 2))
          .isInstanceOf(FaultProbe.InjectedFault.class);
      assertThat(probe.fired()).isEqualTo(1);
      assertThat(arguments(Passes.claim(probed, work, "r", T0, LEASE, 2)))
          .as("from the floor the failed claim would have moved, had it committed")
          .containsExactly("2", "3");
    }
  }
}
