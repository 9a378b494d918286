package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginQuery;
import dev.drover.testing.FaultProbe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A recording writes a batch of new and already listed origins, each row once, whole or not at all.
 * On PostgreSQL it writes the batch without ON CONFLICT (originRecordWithoutConflict), and takes
 * the upsert (originRecord) when the batch is past the limit of that statement; recordings for one
 * lister take turns.
 */
interface RecordingContract extends FrontierContract {
  Instant EARLIER = NOW.minusSeconds(3600);

  Store openProbed(StoreProbe probe);

  Connection rawConnection() throws Exception;

  /** The statements a store runs, by query name. */
  class Steps implements StoreProbe {
    final List<String> names = new CopyOnWriteArrayList<>();

    @Override
    public void beforeStatement(String queryName) {
      names.add(queryName);
    }
  }

  /** The mirror of the url's visit stats in its git row: the last visit's status. */
  private String mirroredStatus(String url) throws Exception {
    List<String> statuses = mirroredStatuses(url);
    assertThat(statuses).as("a row for " + url).isNotEmpty();
    return statuses.get(0);
  }

  /** The last visit's status mirrored in every lister's git row of the url. */
  private List<String> mirroredStatuses(String url) throws Exception {
    List<String> statuses = new ArrayList<>();
    try (Connection c = rawConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT last_visit_status FROM listed_origin WHERE visit_type = 'git' AND url = ?")) {
      s.setString(1, url);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          statuses.add(rs.getString(1));
        }
      }
    }
    return statuses;
  }

  /** "known" listed at EARLIER, its last visit failed; "new" unlisted, visited successfully. */
  private Lister knownAndVisited() {
    Lister l = lister("github");
    listed(l, EARLIER, "known");
    stats(
        visited("known", EARLIER.plusSeconds(60), LastVisitStatus.FAILED),
        visited("new", EARLIER.plusSeconds(120), LastVisitStatus.SUCCESSFUL));
    return l;
  }

  private static List<ListedOrigin> batch(Lister l) {
    return List.of(
        ListedOrigin.of(l.id(), "new", GIT),
        ListedOrigin.of(l.id(), "known", GIT).withEnabled(false),
        ListedOrigin.of(l.id(), "other", GIT));
  }

  @Test
  default void aBatchOfListedAndNewOriginsWritesEachRowOnce() throws Exception {
    Lister l = knownAndVisited();
    Steps steps = new Steps();
    List<ListedOrigin> stored;
    try (Store seeing = openProbed(steps)) {
      stored = seeing.frontier().originRecord(batch(l), NOW);
    }

    assertThat(stored).extracting(ListedOrigin::url).containsExactly("new", "known", "other");
    assertThat(stored.get(0).firstSeen()).isEqualTo(NOW);
    assertThat(stored.get(1).firstSeen())
        .as("a listed row keeps its first_seen")
        .isEqualTo(EARLIER);
    assertThat(stored.get(1).lastSeen()).isEqualTo(NOW);
    assertThat(stored.get(1).enabled()).isFalse();
    assertThat(stored).allSatisfy(o -> assertThat(listedOrigin(l, o.url())).isEqualTo(o));
    assertThat(frontier().originList(OriginQuery.ENABLED.enabled(null)).origins()).hasSize(3);
    assertThat(mirroredStatus("new"))
        .as("a new row copies its url's stats")
        .isEqualTo("successful");
    assertThat(mirroredStatus("known")).as("a listed row keeps its mirror").isEqualTo("failed");
    assertThat(mirroredStatus("other")).isNull();
    if (store().dialect() == Dialect.POSTGRESQL) {
      assertThat(steps.names)
          .as("without ON CONFLICT, and no fallback")
          .contains("originRecordWithoutConflict")
          .doesNotContain("originRecord");
    }
  }

  /** A batch past PostgreSQL's limit for the statement without ON CONFLICT is one upsert. */
  @Test
  default void aBatchLargerThanTheLimitIsRecordedWhole() throws Exception {
    Lister l = knownAndVisited();
    Lister other = lister("gitlab");
    List<ListedOrigin> batch = new ArrayList<>();
    batch.add(ListedOrigin.of(l.id(), "known", GIT).withEnabled(false));
    batch.add(ListedOrigin.of(l.id(), "new", GIT));
    batch.add(ListedOrigin.of(other.id(), "known", GIT));
    for (int i = 0; i < PostgresSql.RECORDING_WITHOUT_CONFLICT_LIMIT; i++) {
      batch.add(ListedOrigin.of(l.id(), "https://example.org/r/" + i, GIT));
    }
    Steps steps = new Steps();
    List<ListedOrigin> stored;
    try (Store seeing = openProbed(steps)) {
      stored = seeing.frontier().originRecord(batch, NOW);
    }

    assertThat(stored).extracting(ListedOrigin::url).isEqualTo(urls(batch));
    assertThat(stored.get(0).firstSeen()).isEqualTo(EARLIER);
    assertThat(stored.get(0).enabled()).isFalse();
    assertThat(stored.get(1).firstSeen()).isEqualTo(NOW);
    assertThat(frontier().originList(OriginQuery.ENABLED.enabled(null).limit(10_000)).origins())
        .hasSize(batch.size());
    assertThat(mirroredStatus("new"))
        .as("a new row copies its url's stats from where no lister lists it")
        .isEqualTo("successful");
    assertThat(mirroredStatuses("known"))
        .as("a second lister's new row copies the first lister's")
        .containsExactly("failed", "failed");
    if (store().dialect() == Dialect.POSTGRESQL) {
      assertThat(steps.names)
          .as("the upsert alone")
          .contains("originRecord")
          .doesNotContain("originRecordWithoutConflict");
    }
  }

  /**
   * The steps of a recording: its locks (PostgreSQL), the listers' check, the write of the batch
   * (SQLite: an upsert per origin, then the delete of the stats rows it moved; PostgreSQL: one
   * statement without ON CONFLICT), the commit. A step the dialect does not take is skipped.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "frontierLockVisitTypeShared",
        "frontierLockStatsSlots",
        "frontierLockListers",
        "listerGetByIds",
        "originRecord",
        "originRecordWithoutConflict",
        "originStatsMoved",
        FaultProbe.COMMIT
      })
  default void aRecordingThatFailsAtAnyStepWritesNothing(String step) {
    Lister l = knownAndVisited();
    Steps steps = new Steps();
    try (Store seeing = openProbed(steps)) {
      seeing.frontier().originRecord(List.of(ListedOrigin.of(l.id(), "known", GIT)), EARLIER);
    }
    assumeTrue(
        step.equals(FaultProbe.COMMIT) || steps.names.contains(step), step + " is not a step here");
    ListedOrigin before = listedOrigin(l, "known");

    FaultProbe probe = new FaultProbe(step, Set.of(1), Set.of("listerGetByIds"));
    try (Store probed = openProbed(probe)) {
      assertThatThrownBy(() -> probed.frontier().originRecord(batch(l), NOW))
          .isInstanceOf(FaultProbe.InjectedFault.class);
      assertThat(probe.fired()).isEqualTo(1);
      assertThat(listedOrigin(l, "known")).as("the listed row as it was").isEqualTo(before);
      assertThat(frontier().originList(OriginQuery.ENABLED.enabled(null)).origins())
          .as("no new row")
          .hasSize(1);

      assertThat(probed.frontier().originRecord(batch(l), NOW)).hasSize(3);
    }
    assertThat(listedOrigin(l, "known").lastSeen()).isEqualTo(NOW);
  }

  /**
   * PostgreSQL: a second recording for the same lister waits for the first, which holds its commit,
   * and then finds the row the first inserted: it updates that row, without the upsert. Before
   * recordings of one lister took turns, two such recordings could each hold a row the other waited
   * for, in whatever order their plans reached the rows (a deadlock seen in CI).
   */
  @Test
  default void aSecondRecordingForOneListerWaitsAndFindsTheFirstsRows() throws Exception {
    assumeTrue(store().dialect() == Dialect.POSTGRESQL, "SQLite records one batch at a time");
    Lister l = lister("github");
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean armed = new AtomicBoolean();
    StoreProbe holdsItsCommit =
        new StoreProbe() {
          @Override
          public void beforeCommit() {
            if (!armed.get()) {
              return; // the store's own transactions as it opens
            }
            holding.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    Steps steps = new Steps();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Store first = openProbed(holdsItsCommit);
        Store second = openProbed(steps)) {
      armed.set(true);
      Future<?> firstRecords =
          pool.submit(
              () ->
                  first
                      .frontier()
                      .originRecord(List.of(ListedOrigin.of(l.id(), "shared", GIT)), EARLIER));
      assertThat(holding.await(30, TimeUnit.SECONDS)).as("the first recording's commit").isTrue();
      Future<List<ListedOrigin>> secondRecords =
          pool.submit(
              () ->
                  second
                      .frontier()
                      .originRecord(
                          List.of(
                              ListedOrigin.of(l.id(), "alone", GIT),
                              ListedOrigin.of(l.id(), "shared", GIT).withEnabled(false)),
                          NOW));
      awaitABackendWaitingOnALock();
      assertThat(steps.names)
          .as("waiting at the lister's lock, nothing written")
          .endsWith("frontierLockListers")
          .doesNotContain("originRecordWithoutConflict");
      release.countDown();
      firstRecords.get(30, TimeUnit.SECONDS);

      List<ListedOrigin> stored = secondRecords.get(30, TimeUnit.SECONDS);
      assertThat(stored).extracting(ListedOrigin::url).containsExactly("alone", "shared");
      assertThat(stored.get(1).firstSeen()).isEqualTo(EARLIER);
      assertThat(stored.get(1).lastSeen()).isEqualTo(NOW);
      assertThat(stored.get(1).enabled()).isFalse();
      assertThat(stored).allSatisfy(o -> assertThat(listedOrigin(l, o.url())).isEqualTo(o));
      assertThat(steps.names)
          .as("then without ON CONFLICT, and no upsert")
          .contains("originRecordWithoutConflict")
          .doesNotContain("originRecord");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  /** Waits until some backend of this database waits for a lock (another's transaction). */
  private void awaitABackendWaitingOnALock() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (Connection c = rawConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
      while (System.nanoTime() < deadline) {
        try (ResultSet rs = s.executeQuery()) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return;
          }
        }
        Thread.sleep(10);
      }
    }
    throw new AssertionError("no recording came to wait for the other within 30 s");
  }
}
