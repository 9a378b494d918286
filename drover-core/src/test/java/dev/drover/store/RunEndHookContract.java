package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.drover.Json;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.testing.Passes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;

/**
 * Every way a run ends reaches the run-end hooks, once per transaction, with the runs it ended,
 * inside that transaction. Mixed into {@link StoreContractTest}, so it runs on every database.
 */
interface RunEndHookContract {
  Duration LEASE = LeaseContract.LEASE;

  Store store();

  private static Instant t0() {
    return LeaseContract.T0;
  }

  /** Another store on the same database that also calls {@code hook} when runs end. */
  Store openWithHook(RunEndHook hook);

  /** A hook that remembers what it was called with. */
  final class Recorder implements RunEndHook {
    final List<List<EndedRun>> calls = new CopyOnWriteArrayList<>();
    final List<Instant> at = new CopyOnWriteArrayList<>();

    @Override
    public void ended(Handle h, List<EndedRun> runs, Instant when) {
      calls.add(runs);
      at.add(when);
    }

    List<EndedRun> only() {
      assertThat(calls).hasSize(1);
      List<EndedRun> runs = calls.get(0);
      calls.clear();
      return runs;
    }
  }

  private TaskType prepared(Store s, int tasks) {
    s.taskTypeCreate(
        TaskType.builder("work").numRetries(1).retryDelay(Duration.ofMinutes(5)).build());
    s.taskCreate(
        IntStream.range(0, tasks)
            .mapToObj(
                i -> NewTask.oneshot("work", TaskArguments.of(List.of(i), null)).withNextRun(t0()))
            .toList(),
        t0());
    return s.taskTypeGet("work").orElseThrow();
  }

  @Test
  default void aPassHandsTheRunsItEndedToTheHooksInOneCall() {
    Recorder hook = new Recorder();
    try (Store s = openWithHook(hook)) {
      TaskType work = prepared(s, 3);
      List<Claim> claims = Passes.claim(s, work, "r", t0(), LEASE, 3);
      Passes.start(s, "r", claims.subList(0, 1), t0().plusSeconds(1));
      assertThat(hook.calls).as("claims and starts end nothing").isEmpty();

      Claim begun = claims.get(0);
      Claim unread = claims.get(1);
      Lease stale = new Lease(claims.get(2).lease().taskId(), claims.get(2).lease().attempt() + 1);
      Instant at = t0().plusSeconds(5);
      List<Lease> rejected =
          Passes.complete(
              s,
              "r",
              List.of(
                  new Completion(begun.lease(), TaskRunStatus.EVENTFUL, Json.object(), null, begun),
                  new Completion(unread.lease(), TaskRunStatus.FAILED, Json.object()),
                  new Completion(stale, TaskRunStatus.EVENTFUL, Json.object())),
              at);
      assertThat(rejected).containsExactly(stale);

      List<EndedRun> ended = hook.only();
      assertThat(hook.at).containsExactly(at);
      assertThat(ended)
          .extracting(r -> r.task().id())
          .containsExactlyInAnyOrder(begun.task().id(), unread.task().id());
      assertThat(ended)
          .allSatisfy(
              r -> {
                assertThat(r.run().ended()).isEqualTo(at);
                assertThat(r.run().status()).isEqualTo(r.status());
                assertThat(r.run().backendId()).isEqualTo(r.task().id() + ".1");
              });
      assertThat(ended)
          .filteredOn(r -> r.task().id() == begun.task().id())
          .singleElement()
          .extracting(EndedRun::status)
          .isEqualTo(TaskRunStatus.EVENTFUL);
      assertThat(ended)
          .filteredOn(r -> r.task().id() == unread.task().id())
          .singleElement()
          .extracting(EndedRun::status)
          .isEqualTo(TaskRunStatus.FAILED);
    }
  }

  @Test
  default void reportedRescuedAndReleasedRunsReachTheHooksToo() {
    Recorder hook = new Recorder();
    try (Store s = openWithHook(hook)) {
      TaskType work = prepared(s, 5);
      List<Claim> begun = Passes.claimStarted(s, work, "r", t0(), LEASE, 3);
      List<Claim> queued = Passes.claim(s, work, "r", t0(), LEASE, 2);

      s.taskRunEnd(
          begun.get(0).run().backendId(),
          TaskRunStatus.UNEVENTFUL,
          Json.object(),
          t0().plusSeconds(1));
      assertThat(hook.only())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.status()).isEqualTo(TaskRunStatus.UNEVENTFUL);
                assertThat(r.task().id()).isEqualTo(begun.get(0).task().id());
              });

      Instant released = t0().plusSeconds(2);
      assertThat(s.taskRelease("r", List.of(begun.get(1).lease()), released)).isEqualTo(1);
      assertThat(hook.only())
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.status()).isEqualTo(TaskRunStatus.LOST);
                assertThat(r.run().metadata().path("released").asBoolean()).isTrue();
              });
      assertThat(s.taskRelease("r", List.of(queued.get(0).lease()), released)).isEqualTo(1);
      assertThat(hook.calls).as("a queued run given back had not begun: no run ended").isEmpty();

      // One rescue takes back a begun run and a queued one; only the begun one had a run to end
      // (the queued one is given back uncharged, as a release is).
      assertThat(s.taskRescueExpired(t0().plus(LEASE).plusSeconds(1), 10)).hasSize(2);
      assertThat(hook.only())
          .extracting(r -> r.run().backendId(), EndedRun::status)
          .containsExactly(tuple(begun.get(2).run().backendId(), TaskRunStatus.LOST));
    }
  }

  @Test
  default void aHookRunsInsideTheTransactionThatEndsTheRuns() {
    RunEndHook failing =
        (h, runs, at) -> {
          throw new IllegalStateException("the hook failed");
        };
    try (Store s = openWithHook(failing)) {
      TaskType work = prepared(s, 1);
      Claim c = Passes.claimStarted(s, work, "r", t0(), LEASE, 1).get(0);
      assertThatThrownBy(
              () ->
                  Passes.complete(
                      s,
                      "r",
                      List.of(
                          new Completion(
                              c.lease(), TaskRunStatus.EVENTFUL, Json.object(), null, c)),
                      t0().plusSeconds(1)))
          .hasMessageContaining("the hook failed");
      assertThat(s.taskGet(List.of(c.task().id())).get(0).status())
          .isEqualTo(TaskStatus.NEXT_RUN_SCHEDULED);
      assertThat(s.taskRunGet(c.run().backendId()).orElseThrow().status())
          .as("the run's end rolled back with the hook")
          .isEqualTo(TaskRunStatus.STARTED);
    }
  }
}
