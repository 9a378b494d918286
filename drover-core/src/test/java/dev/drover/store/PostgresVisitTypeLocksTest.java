package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.store.VisitTypeLocks.Mode;
import dev.drover.testing.PostgresTemplate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The frontier's lock modes on PostgreSQL, held by real transactions on separate connections: stats
 * writers share a visit type with each other and recordings with each other, but a stats writer and
 * a recording wait for one another, and a writer alone waits for both; recordings for one lister
 * take turns. A wait is seen in pg_locks (a lock request not granted), not guessed from time; a
 * lock that should be had at once and never comes fails the test at its timeout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PostgresVisitTypeLocksTest {
  /** Far longer than any lock here takes once free: only a lock that never comes runs into it. */
  private static final long STUCK_SECONDS = 60;

  private Jdbi jdbi;
  private VisitTypeLocks locks;
  private final List<Handle> open = new ArrayList<>();

  /** Each open transaction's backend, read when it began: a handle waiting for a lock is busy. */
  private final Map<Handle, Integer> pids = new HashMap<>();

  @BeforeAll
  void connect() {
    jdbi = Jdbi.create(PostgresTemplate.migratedUrl());
    locks = new VisitTypeLocks(new PostgresSql(new SqlFiles(Dialect.POSTGRESQL)));
  }

  @AfterEach
  void closeAll() {
    for (Handle h : open) {
      if (h.isInTransaction()) {
        h.rollback();
      }
      h.close();
    }
    open.clear();
    pids.clear();
  }

  @Test
  void statsWritersHoldAVisitTypeTogether() throws Exception {
    for (int writer = 0; writer < 9; writer++) {
      // The ninth finds every slot held and waits for its own: the eight before it hold all.
      Handle h = begin();
      if (writer < 8) {
        locks.lockForStats(h, List.of("git"));
      } else {
        CompletableFuture<Void> ninth = lockLater(h, Mode.STATS);
        awaitWaiting(h);
        open.get(slotHolder(h)).rollback();
        ninth.get(STUCK_SECONDS, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void recordingsHoldAVisitTypeTogether() {
    for (int i = 0; i < 3; i++) {
      locks.lockForRecording(begin(), List.of("git"), List.of(UUID.randomUUID()));
    }
  }

  /**
   * Two recordings for one lister would write the same rows, in whatever order each one's plan
   * reaches them: the second waits for the first, even with another lister beside it and in the
   * other order.
   */
  @Test
  void recordingsForOneListerTakeTurns() throws Exception {
    UUID shared = UUID.randomUUID();
    Handle holder = begin();
    locks.lockForRecording(holder, List.of("git"), List.of(UUID.randomUUID(), shared));
    Handle waiter = begin();
    CompletableFuture<Void> waiting =
        CompletableFuture.runAsync(
            () ->
                locks.lockForRecording(waiter, List.of("git"), List.of(shared, UUID.randomUUID())));
    awaitWaiting(waiter);
    assertThat(waiting).as("a second recording for the same lister").isNotDone();
    holder.commit();
    waiting.get(STUCK_SECONDS, TimeUnit.SECONDS);
    waiter.commit();
  }

  @Test
  void aRecordingWaitsForAStatsWriterAndTheOtherWayRound() throws Exception {
    assertWaits(Mode.STATS, Mode.RECORDING);
    assertWaits(Mode.RECORDING, Mode.STATS);
  }

  @Test
  void aWriterAloneWaitsForEitherKindAndEitherKindForIt() throws Exception {
    assertWaits(Mode.STATS, Mode.ALONE);
    assertWaits(Mode.RECORDING, Mode.ALONE);
    assertWaits(Mode.ALONE, Mode.STATS);
    assertWaits(Mode.ALONE, Mode.RECORDING);
  }

  @Test
  void otherVisitTypesDoNotWait() {
    locks.lock(begin(), List.of("git"));
    locks.lock(begin(), List.of("hg"));
    locks.lockForStats(begin(), List.of("svn"));
    locks.lockForRecording(begin(), List.of("bzr"), List.of(UUID.randomUUID()));
  }

  /** {@code second} waits while {@code first} holds "git", and gets it when first commits. */
  private void assertWaits(Mode first, Mode second) throws Exception {
    Handle holder = begin();
    lock(holder, first);
    Handle waiter = begin();
    CompletableFuture<Void> waiting = lockLater(waiter, second);
    awaitWaiting(waiter);
    assertThat(waiting).as(second + " after " + first).isNotDone();
    holder.commit();
    waiting.get(STUCK_SECONDS, TimeUnit.SECONDS);
    waiter.commit();
  }

  private CompletableFuture<Void> lockLater(Handle h, Mode mode) {
    return CompletableFuture.runAsync(() -> lock(h, mode));
  }

  private void lock(Handle h, Mode mode) {
    switch (mode) {
      case ALONE -> locks.lock(h, List.of("git"));
      // A lister of its own: the waits asserted are the visit type's.
      case RECORDING -> locks.lockForRecording(h, List.of("git"), List.of(UUID.randomUUID()));
      case STATS -> locks.lockForStats(h, List.of("git"));
    }
  }

  /** Returns once {@code h}'s backend waits for an advisory lock. */
  private void awaitWaiting(Handle h) throws InterruptedException {
    int pid = pid(h);
    try (Handle observer = jdbi.open()) {
      while (observer
              .createQuery(
                  "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                      + " AND pid = :pid")
              .bind("pid", pid)
              .mapTo(Integer.class)
              .one()
          == 0) {
        Thread.sleep(10);
      }
    }
  }

  /** The index in {@link #open} of the transaction holding the slot {@code waiter} waits for. */
  private int slotHolder(Handle waiter) {
    try (Handle observer = jdbi.open()) {
      int holderPid =
          observer
              .createQuery(
                  """
                  SELECT held.pid
                  FROM pg_locks waiting
                  JOIN pg_locks held ON held.locktype = 'advisory' AND held.granted
                   AND held.classid = waiting.classid AND held.objid = waiting.objid
                   AND held.mode = 'ExclusiveLock'
                  WHERE waiting.pid = :pid AND waiting.locktype = 'advisory' AND NOT waiting.granted
                  """)
              .bind("pid", pid(waiter))
              .mapTo(Integer.class)
              .one();
      for (int i = 0; i < open.size(); i++) {
        if (pid(open.get(i)) == holderPid) {
          return i;
        }
      }
      throw new AssertionError("no open transaction holds the slot; holder pid " + holderPid);
    }
  }

  private int pid(Handle h) {
    return pids.get(h);
  }

  private Handle begin() {
    Handle h = jdbi.open();
    open.add(h);
    pids.put(h, h.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one());
    h.begin();
    return h;
  }
}
