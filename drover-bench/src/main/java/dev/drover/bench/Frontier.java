package dev.drover.bench;

import dev.drover.bench.Databases.BenchDb;
import dev.drover.bench.Databases.Kind;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import dev.drover.store.FrontierStore;
import dev.drover.store.StoreLocation;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The crawl frontier at scale: N listed origins recorded through {@link FrontierStore#originRecord}
 * by four listers (at once on PostgreSQL), in batches, then visit stats for most of them through
 * {@link FrontierStore#visitStatsUpsert} (four writers at once on PostgreSQL, and a timed VACUUM
 * after each of these two phases), then a re-listing of a part of them (the update path), and then
 * grab next visits of {@value #GRAB_COUNT} origins, timed per policy. Grabs are real (not dry
 * runs): each records its origins as scheduled, so the next one of that policy moves on.
 *
 * <p>The origins mimic a forge crawl: four listers, one visit type, a fifth without forge update
 * time, half visited successfully, some failed, some scheduled recently (in cooldown) and some
 * never scheduled; see {@link #stats}.
 */
final class Frontier implements Workload {
  static final String NAME = "frontier";
  static final int GRAB_COUNT = 1000;

  /** Origins per originRecord call: a few lister pages. */
  static final int RECORD_BATCH = 1000;

  /** Stats per visitStatsUpsert call. */
  static final int STATS_BATCH = 1000;

  private static final int LISTERS = 4;
  private static final int GRAB_WARMUP = 2;
  static final String VISIT_TYPE = "git";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String title() {
    return "crawl frontier: record throughput and grab_next_visits(count = "
        + GRAB_COUNT
        + ") latency per policy";
  }

  @Override
  public boolean supports(SystemUnderTest system) {
    // Drover alone: the frontier does not depend on a task type's run history.
    return system.name().equals(Ratios.DROVER);
  }

  @Override
  public List<Column> columns() {
    List<Column> columns =
        new ArrayList<>(
            List.of(
                new Column("origins", "origins"),
                new Column("record_per_s", "record/s"),
                new Column("rerecord_per_s", "re-record/s"),
                new Column("stats_per_s", "stats/s"),
                new Column("vacuum_s", "vacuum s")));
    for (VisitPolicy p : VisitPolicy.values()) {
      columns.add(new Column(p.dbName() + "_p50_ms", p.dbName() + " p50 ms"));
      columns.add(new Column(p.dbName() + "_p99_ms", "p99 ms"));
    }
    return columns;
  }

  @Override
  public Plot plot() {
    return new Plot(
        "Frontier grab of " + GRAB_COUNT + ", slowest policy, ms (bar p50, whisker p99)",
        "grab_worst_p50_ms",
        "grab_worst_p99_ms",
        false);
  }

  @Override
  public Measurement run(SystemUnderTest system, BenchDb db, Settings settings) throws Exception {
    system.open(db, settings, seq -> {});
    FrontierStore frontier = ((DroverSystem) system).frontier();
    int n = settings.origins();
    Instant now = Instant.now();
    List<Lister> listers = listers(frontier, now);
    Map<String, Number> figures = new LinkedHashMap<>();
    Map<String, Object> raw = new LinkedHashMap<>();
    figures.put("origins", n);

    SqlProfile.reset(db.jdbcUrl());
    long start = System.nanoTime();
    record(frontier, listers, 0, n, now, now, db);
    double recordSeconds = seconds(start);
    profile(raw, "record", db);
    figures.put("record_per_s", n / recordSeconds);
    double vacuumAfterRecord = vacuum(db);

    SqlProfile.reset(db.jdbcUrl());
    start = System.nanoTime();
    int withStats = loadStats(frontier, n, now, db);
    double statsSeconds = seconds(start);
    profile(raw, "stats", db);
    figures.put("stats_per_s", withStats / statsSeconds);
    double vacuumAfterStats = vacuum(db);
    figures.put("vacuum_s", vacuumAfterRecord + vacuumAfterStats);
    raw.put("vacuum_after_record_seconds", vacuumAfterRecord);
    raw.put("vacuum_after_stats_seconds", vacuumAfterStats);
    SqlProfile.reset(db.jdbcUrl());

    // A lister listing again what it listed before, unchanged on the forge: every row takes the
    // update path.
    int relisted = Math.max(1, n / 10);
    start = System.nanoTime();
    record(frontier, listers, 0, relisted, now, now.plusSeconds(60), db);
    double rerecordSeconds = seconds(start);
    profile(raw, "rerecord", db);
    // The first lister finished a listing: first_visits_after_listing has its origins to hand out.
    listers.set(
        0,
        frontier.listerUpdate(
            listers.get(0).withLastListingFinishedAt(now.plusSeconds(60)), now.plusSeconds(60)));
    figures.put("rerecord_per_s", relisted / rerecordSeconds);
    // What the frontier takes on disk, per table and index (the 100M design note's figures).
    if (db.jdbcUrl() != null) {
      raw.put(
          "relation_bytes",
          SqlProfile.relationSizes(db.jdbcUrl(), "listed_origin", "origin_visit_stats"));
    } else {
      raw.put("database_file_bytes", Files.size(db.dir().resolve(StoreLocation.DATABASE_FILE)));
    }
    raw.put("record_seconds", recordSeconds);
    raw.put("stats_seconds", statsSeconds);
    raw.put("origins_with_stats", withStats);
    raw.put("rerecorded", relisted);
    raw.put("rerecord_seconds", rerecordSeconds);
    raw.put("record_batch", RECORD_BATCH);
    raw.put("stats_batch", STATS_BATCH);

    // The policies take turns, as the visit scheduler's weighted rounds do, so that no policy
    // finds the origins it would choose all taken by another that ran before it.
    VisitPolicy[] policies = VisitPolicy.values();
    double[][] latencies = new double[policies.length][settings.grabs()];
    int[][] returned = new int[policies.length][settings.grabs()];
    Instant grabAt = now.plusSeconds(120);
    String walBeforeGrabs = SqlProfile.ENABLED ? SqlProfile.walPosition(db.jdbcUrl()) : null;
    for (int round = 0; round < GRAB_WARMUP + settings.grabs(); round++) {
      if (round == GRAB_WARMUP && SqlProfile.ENABLED) {
        // The warm-up's statements and WAL apart: its first grabs put back, once, every origin
        // whose imported cooldown has ended, which the timed grabs then no longer do.
        raw.put("wal_grab_warmup", SqlProfile.walByRecordType(db.jdbcUrl(), walBeforeGrabs, 12));
        profile(raw, "grab_warmup", db);
        walBeforeGrabs = SqlProfile.walPosition(db.jdbcUrl());
      }
      for (int p = 0; p < policies.length; p++) {
        VisitRequest request = request(policies[p], listers);
        grabAt = grabAt.plusSeconds(1);
        long t = System.nanoTime();
        int got = frontier.originGrabNextVisits(request, grabAt).size();
        double ms = (System.nanoTime() - t) / 1e6;
        if (round >= GRAB_WARMUP) {
          latencies[p][round - GRAB_WARMUP] = ms;
          returned[p][round - GRAB_WARMUP] = got;
        }
      }
    }
    profile(raw, "grabs", db);
    raw.put("wal_grabs", SqlProfile.walByRecordType(db.jdbcUrl(), walBeforeGrabs, 12));
    // How each policy's selection runs after the timed rounds (for docs/benchmarks.md).
    grabAt = grabAt.plusSeconds(1);
    for (VisitPolicy policy : policies) {
      raw.put(policy.dbName() + "_plan", frontier.originGrabPlan(request(policy, listers), grabAt));
    }
    double worstP50 = 0;
    double worstP99 = 0;
    for (int p = 0; p < policies.length; p++) {
      double[] sorted = latencies[p].clone();
      Arrays.sort(sorted);
      double p50 = Pickup.percentile(sorted, 50);
      double p99 = Pickup.percentile(sorted, 99);
      String policy = policies[p].dbName();
      figures.put(policy + "_p50_ms", p50);
      figures.put(policy + "_p99_ms", p99);
      worstP50 = Math.max(worstP50, p50);
      worstP99 = Math.max(worstP99, p99);
      raw.put(policy + "_latencies_ms", latencies[p]);
      raw.put(policy + "_returned", returned[p]);
    }
    figures.put("grab_worst_p50_ms", worstP50);
    figures.put("grab_worst_p99_ms", worstP99);
    return new Measurement(figures, raw);
  }

  /** The bench's listers, created at {@code now}. */
  static List<Lister> listers(FrontierStore frontier, Instant now) {
    List<Lister> listers = new ArrayList<>();
    for (int i = 0; i < LISTERS; i++) {
      listers.add(frontier.listerGetOrCreate("bench-forge-" + i, "", null, now));
    }
    return listers;
  }

  /** A grab of {@link #GRAB_COUNT} by {@code policy}, narrowed to the first lister where needed. */
  private static VisitRequest request(VisitPolicy policy, List<Lister> listers) {
    VisitRequest.Builder request = VisitRequest.builder(VISIT_TYPE, GRAB_COUNT, policy);
    if (policy == VisitPolicy.FIRST_VISITS_AFTER_LISTING) {
      request.lister(listers.get(0).id());
    }
    return request.build();
  }

  /**
   * Records origins {@code from .. to - 1} at {@code now}, their forge update times relative to
   * {@code forgeNow}. Origin {@code i} belongs to lister {@code i % LISTERS}; each lister records
   * its own origins in batches. On PostgreSQL the listers record at once, each on a thread of its
   * own, as a forge's listers run side by side; SQLite has one writer, and writers waiting for it
   * only slow each other down, so there they take turns.
   */
  static void record(
      FrontierStore frontier,
      List<Lister> listers,
      int from,
      int to,
      Instant forgeNow,
      Instant now,
      BenchDb db)
      throws Exception {
    ExecutorService pool =
        Executors.newFixedThreadPool(db.kind() == Kind.POSTGRES ? listers.size() : 1);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int l = 0; l < listers.size(); l++) {
        int first = from + Math.floorMod(l - from, listers.size());
        Lister lister = listers.get(l);
        running.add(
            pool.submit(
                () -> {
                  List<ListedOrigin> batch = new ArrayList<>(RECORD_BATCH);
                  for (int i = first; i < to; i += listers.size()) {
                    batch.add(origin(lister, i, forgeNow));
                    if (batch.size() == RECORD_BATCH) {
                      frontier.originRecord(batch, now);
                      batch.clear();
                    }
                  }
                  if (!batch.isEmpty()) {
                    frontier.originRecord(batch, now);
                  }
                }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static ListedOrigin origin(Lister lister, int i, Instant forgeNow) {
    ListedOrigin o = ListedOrigin.of(lister.id(), url(i), VISIT_TYPE);
    // A fifth of forges say nothing of when an origin last changed; the others, within a year.
    return i % 5 == 1 ? o : o.withLastUpdate(forgeNow.minus(Duration.ofMinutes(i % 525_600)));
  }

  private static String url(int i) {
    // Not in insertion order, as a real listing is not: spreads the url indexes' writes. Built by
    // hand: String.format was a fifth of the recording threads' CPU, taken from the server's cores.
    return "https://forge-" + i % 7 + ".example.org/" + hex(Integer.reverse(i), 8) + "/repo-" + i;
  }

  /** {@code value} in lower-case hex, unsigned, zero-padded to {@code width} digits. */
  private static String hex(int value, int width) {
    String digits = Integer.toHexString(value);
    return "0".repeat(Math.max(0, width - digits.length())) + digits;
  }

  /**
   * Gives most origins visit stats; returns how many. On PostgreSQL four writers at once, each with
   * every fourth origin, as the loaders of a crawl report side by side (stats writers share the
   * frontier's lock there, see VisitTypeLocks); SQLite has one writer, so one thread.
   */
  static int loadStats(FrontierStore frontier, int n, Instant now, BenchDb db) throws Exception {
    int writers = db.kind() == Kind.POSTGRES ? LISTERS : 1;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Integer>> running = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int first = w;
        running.add(pool.submit(() -> loadStats(frontier, first, writers, n, now)));
      }
      int count = 0;
      for (Future<Integer> f : running) {
        count += f.get();
      }
      return count;
    } finally {
      pool.shutdownNow();
    }
  }

  /** The stats of origins {@code first}, {@code first + step}, ... below {@code n}, in batches. */
  private static int loadStats(FrontierStore frontier, int first, int step, int n, Instant now) {
    List<OriginVisitStats> batch = new ArrayList<>(STATS_BATCH);
    int count = 0;
    for (int i = first; i < n; i += step) {
      OriginVisitStats s = stats(i, now);
      if (s != null) {
        batch.add(s);
        count++;
      }
      if (batch.size() == STATS_BATCH) {
        frontier.visitStatsUpsert(batch);
        batch.clear();
      }
    }
    if (!batch.isEmpty()) {
      frontier.visitStatsUpsert(batch);
    }
    return count;
  }

  /**
   * On PostgreSQL, VACUUM (ANALYZE) of the frontier's tables after a bulk write, timed, as an
   * operator runs after a bulk load: the next phase then measures its own work, not autovacuum
   * catching up beside it on the last phase's dead rows and statistics. (After four stats writers,
   * re-recording fell from about 37,000 to 10,000 origins/s without it, and grab p99s rose past 400
   * ms; with VACUUM alone the re-recording recovered but not the grabs, with ANALYZE alone both
   * did.) What it costs is reported with the phase it follows.
   */
  static double vacuum(BenchDb db) throws Exception {
    if (db.jdbcUrl() == null) {
      return 0;
    }
    long start = System.nanoTime();
    try (Connection c = DriverManager.getConnection(db.jdbcUrl());
        Statement s = c.createStatement()) {
      s.execute("VACUUM (ANALYZE) listed_origin, origin_visit_stats");
    }
    return seconds(start);
  }

  /**
   * Origin {@code i}'s stats, or null for the tenth never scheduled: half visited successfully
   * (about a third of those changed on the forge since), a tenth failed, a tenth scheduled within
   * the last 12 hours (in cooldown), the rest scheduled 8 to 30 days ago.
   */
  static OriginVisitStats stats(int i, Instant now) {
    int kind = i % 10;
    if (kind == 9) {
      return null;
    }
    OriginVisitStats s = OriginVisitStats.initial(url(i), VISIT_TYPE);
    Instant scheduled =
        kind == 7
            ? now.minus(Duration.ofMinutes(1 + i % 600))
            : now.minus(Duration.ofDays(8)).minus(Duration.ofMinutes(i % 31_680));
    s = s.withLastScheduled(scheduled);
    Instant visited = scheduled.plus(Duration.ofMinutes(10 + i % 50));
    if (i % 2 == 0) {
      // Forge updates are up to a year old: a visit before some of them leaves a lag to catch up.
      Instant at = i % 3 == 0 ? now.minus(Duration.ofDays(200 + i % 200)) : visited;
      s = s.withLastVisit(at, LastVisitStatus.SUCCESSFUL).withLastSuccess(at, hex(i, 40));
    } else if (kind == 3) {
      s = s.withLastVisit(visited, LastVisitStatus.FAILED);
    }
    return s.withQueue(i % 3 == 0 ? null : (long) (i % 86_400) * 100, 4);
  }

  /** With SQL profiling on: the phase's slowest statements into the raw results, and a reset. */
  private static void profile(Map<String, Object> raw, String phase, BenchDb db) throws Exception {
    if (SqlProfile.ENABLED && db.jdbcUrl() != null) {
      raw.put("sql_profile_" + phase, SqlProfile.top(db.jdbcUrl()));
      SqlProfile.reset(db.jdbcUrl());
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
