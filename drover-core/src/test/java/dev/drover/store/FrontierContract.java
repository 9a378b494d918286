package dev.drover.store;

import dev.drover.frontier.Cooldowns;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginKey;
import dev.drover.frontier.OriginQuery;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Fixtures shared by the crawl-frontier contracts ({@link ListerContract}, {@link OriginContract},
 * {@link VisitPolicyContract}, {@link VisitStatsContract}, {@link FrontierMetricsContract}), which
 * are mixed into {@link StoreContractTest} and so run on every database.
 */
interface FrontierContract {
  Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  Duration DAY1 = Duration.ofDays(1);
  String GIT = "git";

  /** Jitter u = 0: queue positions move by exactly days(offset) days. */
  RandomGenerator NO_JITTER = fixedRandom(0.5);

  Store store();

  default FrontierStore frontier() {
    return store().frontier();
  }

  /** A lister created long before {@link #NOW}. */
  default Lister lister(String name) {
    return frontier().listerGetOrCreate(name, "", null, NOW.minus(Duration.ofDays(365)));
  }

  /** Records enabled git origins of {@code lister} at {@code at}. */
  default void listed(Lister lister, Instant at, String... urls) {
    frontier()
        .originRecord(
            List.of(urls).stream().map(u -> ListedOrigin.of(lister.id(), u, GIT)).toList(), at);
  }

  default void listed(Instant at, ListedOrigin... origins) {
    frontier().originRecord(List.of(origins), at);
  }

  default void stats(OriginVisitStats... stats) {
    frontier().visitStatsUpsert(List.of(stats));
  }

  default OriginVisitStats statsOf(String url) {
    List<OriginVisitStats> found = frontier().visitStatsGet(List.of(new OriginKey(url, GIT)));
    return found.isEmpty() ? null : found.get(0);
  }

  default ListedOrigin listedOrigin(Lister lister, String url) {
    return frontier()
        .originList(OriginQuery.ENABLED.enabled(null).lister(lister.id()).url(url))
        .origins()
        .stream()
        .filter(o -> o.visitType().equals(GIT))
        .findFirst()
        .orElseThrow();
  }

  default OriginVisitStats git(String url) {
    return OriginVisitStats.initial(url, GIT);
  }

  /**
   * Stats of a visit at {@code at} that ended with {@code status} (successful ones archived
   * "snap").
   */
  default OriginVisitStats visited(String url, Instant at, LastVisitStatus status) {
    OriginVisitStats s = git(url).withLastVisit(at, status);
    return status == LastVisitStatus.SUCCESSFUL ? s.withLastSuccess(at, "snap-" + url) : s;
  }

  /** The urls grabbed at {@link #NOW} by {@code policy} with default filters and cooldowns. */
  default List<String> grab(VisitPolicy policy, int count) {
    return grab(VisitRequest.of(GIT, count, policy));
  }

  default List<String> grab(VisitRequest request) {
    return urls(frontier().originGrabNextVisits(request, NOW));
  }

  /** What {@code policy} would grab now with {@code cooldowns}, recording nothing. */
  default List<String> peek(VisitPolicy policy, Cooldowns cooldowns) {
    return peekAt(NOW, policy, cooldowns);
  }

  /** What a grab by {@code policy} at {@code at} would hand out, as a dry run. */
  default List<String> peekAt(Instant at, VisitPolicy policy, Cooldowns cooldowns) {
    return urls(
        frontier()
            .originGrabNextVisits(
                VisitRequest.builder(GIT, 100, policy).cooldowns(cooldowns).dryRun(true).build(),
                at));
  }

  default List<String> urls(List<ListedOrigin> origins) {
    return origins.stream().map(ListedOrigin::url).toList();
  }

  /** A generator whose every nextDouble() is {@code d}, to pin the jitter. */
  static RandomGenerator fixedRandom(double d) {
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new UnsupportedOperationException("only nextDouble() is pinned");
      }

      @Override
      public double nextDouble() {
        return d;
      }
    };
  }
}
