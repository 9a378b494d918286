package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.frontier.Cooldowns;
import dev.drover.frontier.LastVisitStatus;
import dev.drover.frontier.OriginQuery;
import dev.drover.frontier.OriginVisitStats;
import dev.drover.frontier.VisitPolicy;
import dev.drover.frontier.VisitRequest;
import dev.drover.testing.PostgresTemplate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every frontier query is served by an index on PostgreSQL: EXPLAIN of the exact SQL the store
 * runs, on 60,000 analyzed listed origins across 10 listers and two visit types, in a realistic mix
 * (half visited, some failed, some never scheduled, a fifth without forge update time). No plan may
 * read listed_origin or origin_visit_stats whole, and each grab policy must walk its own index in
 * order, with no sort, so that it stops after {@code count} rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresFrontierPlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final int ORIGINS = 60_000;

  private Store store;
  private Jdbi jdbi;
  private final SqlFiles sql = new SqlFiles(Dialect.POSTGRESQL);
  private List<String> listerIds;

  @BeforeAll
  void fill() throws Exception {
    String url = PostgresTemplate.migratedUrl();
    store = Stores.open(StoreLocation.postgres(url));
    for (int i = 0; i < 10; i++) {
      store.frontier().listerGetOrCreate("lister-" + i, "", null, NOW);
    }
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(
          """
          INSERT INTO listed_origin (lister_id, url, visit_type, enabled, first_seen, last_seen, last_update,
              last_scheduled, last_visit, last_visit_status, last_successful, last_snapshot, next_visit_queue_position,
              next_position_offset, successive_visits)
          SELECT l.id,
                 'https://example.org/r/' || i,
                 CASE WHEN i % 5 = 0 THEN 'hg' ELSE 'git' END,
                 i % 50 <> 0,
                 timestamptz '2026-01-01' + i * interval '1 minute',
                 timestamptz '2026-05-01',
                 CASE WHEN i % 5 = 1 THEN NULL ELSE timestamptz '2026-05-01' - (i % 997) * interval '1 hour' END,
                 CASE WHEN i % 10 < 7 THEN timestamptz '2026-05-20' - (i % 400) * interval '1 hour' END,
                 CASE WHEN i % 2 = 0 OR i % 10 = 3 THEN timestamptz '2026-05-10' - (i % 500) * interval '1 hour' END,
                 CASE WHEN i % 2 = 0 THEN 'successful' WHEN i % 10 = 3 THEN 'failed' END,
                 CASE WHEN i % 2 = 0 THEN timestamptz '2026-05-10' - (i % 500) * interval '1 hour' END,
                 CASE WHEN i % 2 = 0 THEN md5(i::text) END,
                 CASE WHEN i % 3 = 0 THEN NULL ELSE i * 100 END,
                 CASE WHEN i % 10 < 7 OR i % 2 = 0 OR i % 10 = 3 THEN 4 END,
                 CASE WHEN i % 10 < 7 OR i % 2 = 0 OR i % 10 = 3 THEN 1 END
          FROM generate_series(1, $ORIGINS) AS i
          JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM lister) l ON l.n = i % 10
          """
              .replace("$ORIGINS", Integer.toString(ORIGINS)));
      s.execute(
          """
          INSERT INTO origin_visit_stats (url, visit_type, last_scheduled, last_visit, last_visit_status,
              last_successful, last_snapshot, next_visit_queue_position)
          SELECT replace(url, '/r/', '/unlisted/'), visit_type, last_scheduled, last_visit, last_visit_status,
                 last_successful, last_snapshot, next_visit_queue_position
          FROM listed_origin
          WHERE next_position_offset IS NOT NULL
          """);
      s.execute("ANALYZE");
    }
    listerIds = store.frontier().listerList().stream().map(l -> l.id().toString()).toList();
    jdbi = Jdbi.create(url + "&stringtype=unspecified");
    jdbi.registerArgument(new InstantArgumentFactory(new PostgresSql(sql)));
  }

  @AfterAll
  void close() {
    store.close();
  }

  static String indexOf(VisitPolicy policy) {
    return "listed_origin_grab_"
        + switch (policy) {
          case OLDEST_SCHEDULED_FIRST -> "oldest_scheduled";
          case STOP_AFTER_SUCCESS -> "stop_after_success";
          case NEVER_VISITED_OLDEST_UPDATE_FIRST -> "never_visited";
          case ALREADY_VISITED_ORDER_BY_LAG -> "by_lag";
          case ORIGINS_WITHOUT_LAST_UPDATE -> "without_last_update";
          case FIRST_VISITS_AFTER_LISTING -> "first_visits";
        };
  }

  @ParameterizedTest
  @EnumSource(
      value = VisitPolicy.class,
      names = "FIRST_VISITS_AFTER_LISTING",
      mode = EnumSource.Mode.EXCLUDE)
  void eachPolicyWalksItsOwnIndexWithoutSorting(VisitPolicy policy) {
    for (VisitRequest r :
        List.of(
            request(policy, false).build(),
            request(policy, false).dryRun(true).build(),
            request(policy, false).cooldowns(Cooldowns.NONE).build())) {
      String plan = grabPlan(r);
      assertThat(plan)
          .as(plan)
          .startsWith("Limit")
          .contains("Index Scan using " + indexOf(policy) + " on listed_origin")
          .doesNotContain("Seq Scan")
          .doesNotContain("Sort");
    }
  }

  /**
   * V016: a grab's mark takes what it hands out out of every policy's index, so the next grab of a
   * policy whose order the mark does not change reads none of it (before, it read past every origin
   * handed out within the cooldown, each a row removed by the scheduled cooldown's filter). The
   * failed and not-found cooldowns are off, so that no other filter removes a row here, whichever
   * way the planner reads the index. (The other tests only EXPLAIN, without running, so the origins
   * handed out here do not change them.)
   */
  @Test
  void aGrabNeverReadsPastTheOriginsEarlierGrabsHandedOut() {
    VisitRequest r =
        VisitRequest.builder("git", 500, VisitPolicy.STOP_AFTER_SUCCESS)
            .cooldowns(Cooldowns.DEFAULT.withFailed(null).withNotFound(null))
            .build();
    List<String> firstPlan = store.frontier().originGrabPlan(r, NOW);
    List<String> handedOut =
        store.frontier().originGrabNextVisits(r, NOW).stream().map(o -> o.url()).toList();
    List<String> secondPlan = store.frontier().originGrabPlan(r, NOW);
    List<String> next =
        store.frontier().originGrabNextVisits(r, NOW).stream().map(o -> o.url()).toList();

    assertThat(handedOut).hasSize(500);
    assertThat(next).hasSize(500).doesNotContainAnyElementsOf(handedOut);
    for (List<String> plan : List.of(firstPlan, secondPlan)) {
      String text = String.join("\n", plan);
      assertThat(text)
          .as(text)
          .containsPattern(
              "(Index Scan using|Bitmap Index Scan on) listed_origin_grab_stop_after_success ")
          .doesNotContain("Rows Removed by Filter");
    }
  }

  /**
   * V018: an origin whose last visit failed is out of every policy's index while its cooldown may
   * hold, so a grab reads none of the failed origins at the front of its policy's order (before, it
   * read past each and removed it by the failed cooldown's filter). Runs on the hg visit type,
   * which no other test grabs, and writes the visits through the store's stats write as a runner
   * does. (Failures older than the default failed cooldown stay in: the next grab would put them
   * back at once.)
   */
  @Test
  void aGrabNeverReadsPastOriginsCoolingAfterAFailedVisit() {
    // The store takes out only failures the default cooldown holds at the time of the write.
    Instant now = Instant.now();
    assertTheNextGrabReadsPastNoneOfTheFront(
        now,
        url ->
            OriginVisitStats.initial(url, "hg")
                .withLastVisit(now.minus(Duration.ofDays(1)), LastVisitStatus.FAILED));
  }

  /**
   * Origins whose stats say they were scheduled an hour ago and not visited since (stats written
   * directly, as an import writes them) are out of the policy's index, as handed-out ones are
   * (V016): the next grab walks past none of them. (Schedulings older than the default scheduled
   * cooldown stay in: the next grab would put them back at once.)
   */
  @Test
  void aGrabNeverReadsPastOriginsScheduledByTheirStats() {
    // The store takes out only schedulings the default cooldown holds at the time of the write.
    Instant now = Instant.now();
    assertTheNextGrabReadsPastNoneOfTheFront(
        now,
        url ->
            OriginVisitStats.initial(url, "hg").withLastScheduled(now.minus(Duration.ofHours(1))));
  }

  /**
   * Writes {@code stats} for the 300 hg origins at the front of stop_after_success's order, then
   * checks that the next grab of 300 takes none of them and walks its index without removing a row
   * by filter: the stats took them out of it.
   */
  private void assertTheNextGrabReadsPastNoneOfTheFront(
      Instant now, Function<String, OriginVisitStats> stats) {
    VisitRequest r = VisitRequest.builder("hg", 300, VisitPolicy.STOP_AFTER_SUCCESS).build();
    List<String> front =
        store
            .frontier()
            .originGrabNextVisits(
                VisitRequest.builder("hg", 300, VisitPolicy.STOP_AFTER_SUCCESS)
                    .dryRun(true)
                    .build(),
                now)
            .stream()
            .map(o -> o.url())
            .toList();
    store.frontier().visitStatsUpsert(front.stream().map(stats).toList());

    String plan = String.join("\n", store.frontier().originGrabPlan(r, now));
    List<String> chosen =
        store.frontier().originGrabNextVisits(r, now).stream().map(o -> o.url()).toList();

    assertThat(front).hasSize(300);
    assertThat(chosen).hasSize(300).doesNotContainAnyElementsOf(front);
    assertThat(plan)
        .as(plan)
        .containsPattern(
            "(Index Scan using|Bitmap Index Scan on) listed_origin_grab_stop_after_success ")
        .doesNotContain("Rows Removed by Filter");
  }

  /**
   * Before choosing, a grab returns the cooling origins whose cooldown ended, through their index.
   */
  @Test
  void aGrabReturnsCoolingOriginsThroughTheirOwnIndex() {
    for (Cooldowns c : List.of(Cooldowns.DEFAULT, Cooldowns.NONE)) {
      VisitRequest r = request(VisitPolicy.OLDEST_SCHEDULED_FIRST, false).cooldowns(c).build();
      VisitGrabSql q = VisitGrabSql.of(new PostgresSql(sql), r, NOW, List.of(), null);
      for (LastVisitStatus status : q.coolingStatuses()) {
        String plan =
            jdbi.withHandle(
                h ->
                    explain(
                        q.bindReturnCooled(
                            h.createQuery("EXPLAIN " + sql.get(SqlQuery.VISIT_RETURN_COOLED)),
                            r,
                            status)));
        assertThat(plan).as(plan).contains("listed_origin_cooling").doesNotContain("Seq Scan");
      }
    }
  }

  /**
   * Before choosing, a grab returns the awaiting origins whose cooldowns ended: it reads them
   * alone, through their own index, however many origins are not awaiting a visit.
   */
  @Test
  void aGrabReturnsAwaitingOriginsThroughTheirOwnIndex() {
    for (Cooldowns c : List.of(Cooldowns.DEFAULT, Cooldowns.NONE)) {
      VisitRequest r = request(VisitPolicy.OLDEST_SCHEDULED_FIRST, false).cooldowns(c).build();
      VisitGrabSql q = VisitGrabSql.of(new PostgresSql(sql), r, NOW, List.of(), null);
      String plan =
          jdbi.withHandle(
              h ->
                  explain(
                      q.bindReturn(
                          h.createQuery("EXPLAIN " + sql.get(SqlQuery.VISIT_RETURN_AWAITING)), r)));
      assertThat(plan).as(plan).contains("listed_origin_awaiting_visit").doesNotContain("Seq Scan");
    }
  }

  /**
   * first_visits_after_listing reads only its lister's rows, through its own index, whose equality
   * columns include the lister. Here a lister has few enough rows that reading them all and sorting
   * them is cheaper; on a large frontier the same index is walked in order (the bench's frontier
   * workload records the plan). It must never walk another policy's index and filter the lister's
   * rows out of all of them, as it did with the lister leading its index (V012).
   */
  @Test
  void firstVisitsReadOnlyItsListersRowsThroughItsOwnIndex() {
    VisitPolicy policy = VisitPolicy.FIRST_VISITS_AFTER_LISTING;
    for (VisitRequest r :
        List.of(
            request(policy, true).build(),
            request(policy, true).dryRun(true).build(),
            request(policy, true).cooldowns(Cooldowns.NONE).build())) {
      String plan = grabPlan(r);
      assertThat(plan)
          .as(plan)
          .containsPattern(
              "(Index Scan using|Bitmap Index Scan on) listed_origin_grab_first_visits\\b")
          .containsPattern("Index Cond: .*lister_id = ")
          .doesNotContain("Seq Scan");
    }
  }

  /**
   * Narrowed to one lister (a tenth of the rows here), the planner may rather read that lister's
   * rows through the lister-leading index and sort them; either way no table is read whole.
   */
  @ParameterizedTest
  @EnumSource(VisitPolicy.class)
  void aListerFilterStillUsesAnIndex(VisitPolicy policy) {
    String plan = grabPlan(request(policy, true).build());
    assertThat(plan)
        .as(plan)
        .containsPattern("(using|on) listed_origin_grab_")
        .doesNotContain("Seq Scan");
  }

  private VisitRequest.Builder request(VisitPolicy policy, boolean withLister) {
    VisitRequest.Builder b = VisitRequest.builder("git", 1000, policy);
    return withLister ? b.lister(UUID.fromString(listerIds.get(0))) : b;
  }

  private String grabPlan(VisitRequest r) {
    List<String> ids = r.listerId() == null ? List.of() : List.of(r.listerId().toString());
    Instant listingFinished =
        r.policy() == VisitPolicy.FIRST_VISITS_AFTER_LISTING ? NOW.minusSeconds(86_400) : null;
    VisitGrabSql q = VisitGrabSql.of(new PostgresSql(sql), r, NOW, ids, listingFinished);
    return jdbi.withHandle(
        h -> explain(q.bind(h.createQuery("EXPLAIN " + sql.get(q.template())), r)));
  }

  @Test
  void originPagesWalkThePrimaryKey() {
    String lister = listerIds.get(3);
    String token = new OriginPageToken(lister, "https://example.org/r/5", "git").toString();
    for (OriginQuery q :
        List.of(
            OriginQuery.ENABLED,
            OriginQuery.ENABLED.page(token),
            OriginQuery.ENABLED.lister(UUID.fromString(lister)),
            OriginQuery.ENABLED.lister(UUID.fromString(lister)).page(token),
            OriginQuery.ENABLED.enabled(null).limit(10).page(token))) {
      String plan = originListPlan(q);
      assertThat(plan)
          .as(plan)
          .contains("Index Scan using listed_origin_pkey")
          .doesNotContain("Seq Scan")
          .doesNotContain("Sort");
    }
  }

  @Test
  void originLookupsByUrlUseTheUrlIndex() {
    for (OriginQuery q :
        List.of(
            OriginQuery.ENABLED.url("https://example.org/r/5"),
            OriginQuery.ENABLED.urls(
                List.of("https://example.org/r/5", "https://example.org/r/6")))) {
      String plan = originListPlan(q);
      // The few rows of one url are sorted into key order; no table is read whole.
      assertThat(plan).as(plan).contains("listed_origin_by_url").doesNotContain("Seq Scan");
    }
  }

  private String originListPlan(OriginQuery q) {
    OriginListSql s = OriginListSql.of(q);
    return jdbi.withHandle(h -> explain(s.bind(h.createQuery("EXPLAIN " + s.sql()))));
  }

  /** V013: every index step on a url or visit type is a byte comparison, as on SQLite. */
  @Test
  void frontierKeysCompareByteByByte() {
    List<String> collations =
        jdbi.withHandle(
            h ->
                h.createQuery(
                        "SELECT table_name || '.' || column_name || ' ' || collation_name "
                            + "FROM information_schema.columns "
                            + "WHERE table_name IN ('listed_origin', 'origin_visit_stats') "
                            + "AND column_name IN ('url', 'visit_type') ORDER BY 1")
                    .mapTo(String.class)
                    .list());
    assertThat(collations)
        .containsExactly(
            "listed_origin.url C",
            "listed_origin.visit_type C",
            "origin_visit_stats.url C",
            "origin_visit_stats.visit_type C");
  }

  /** The per-origin reads and writes of recording, grabbing, ingesting and metrics. */
  @Test
  void perOriginStatementsAndMetricsUseIndexes() {
    Map<String, Object> values =
        Map.of(
            "url",
            "https://example.org/r/5",
            "visit_type",
            "git",
            "now",
            NOW,
            "lister_id",
            listerIds.get(3));
    Map<SqlQuery, List<String>> expectedIndex = new LinkedHashMap<>();
    expectedIndex.put(SqlQuery.ORIGIN_DISABLE, List.of("listed_origin_by_url"));
    // A listed url's stats are in its listed rows, the others' in origin_visit_stats (V028).
    expectedIndex.put(
        SqlQuery.VISIT_STATS_GET, List.of("listed_origin_by_url", "origin_visit_stats_pkey"));
    expectedIndex.put(SqlQuery.METRICS_UPDATE, List.of("Index Scan"));
    jdbi.useHandle(
        h ->
            expectedIndex.forEach(
                (name, indexes) -> {
                  String text = sql.get(name);
                  Query q = h.createQuery("EXPLAIN " + text);
                  values.forEach(
                      (k, v) -> {
                        if (text.contains(":" + k)) {
                          q.bind(k, v);
                        }
                      });
                  if (text.contains("<urls>")) {
                    q.bindList(
                        "urls", List.of("https://example.org/r/5", "https://example.org/r/6"));
                  }
                  String plan = explain(q);
                  assertThat(plan)
                      .as(name + "\n" + plan)
                      .contains(indexes)
                      .doesNotContain("Seq Scan on listed_origin")
                      .doesNotContain("Seq Scan on origin_visit_stats");
                }));
  }

  /**
   * The batch statements, which take their batch as arrays (bound here with two elements each):
   * each must find its rows through the index named, and none may read a table whole.
   */
  @Test
  void batchStatementsUseIndexes() {
    Map<SqlQuery, List<String>> expected = new LinkedHashMap<>();
    // A new row's stats come from another lister's row of its url, else the url's stats row
    // (V028).
    expected.put(
        SqlQuery.ORIGIN_RECORD,
        List.of(
            "Conflict Arbiter Indexes: listed_origin_pkey",
            "listed_origin_by_url",
            "origin_visit_stats_pkey"));
    // Each origin is looked up once in the url index, its own row then updated by its row id; the
    // new ones are the rest: never an anti join, which may compare every pair of the batch.
    expected.put(
        SqlQuery.ORIGIN_RECORD_WITHOUT_CONFLICT,
        List.of(
            "Update on listed_origin",
            "Tid Scan on listed_origin",
            "listed_origin_by_url",
            "origin_visit_stats_pkey"));
    // A listed url's stats are written in its rows, found by url in the batch's key order (a
    // nested loop from the sorted batch); only the other urls' go to origin_visit_stats.
    for (SqlQuery statsWrite : List.of(SqlQuery.VISIT_STATS_UPSERT, SqlQuery.VISIT_STATS_REPLACE)) {
      expected.put(
          statsWrite,
          List.of(
              "Update on listed_origin",
              "Nested Loop",
              "listed_origin_by_url",
              "hashed SubPlan",
              "Conflict Arbiter Indexes: origin_visit_stats_pkey"));
    }
    expected.put(
        SqlQuery.VISIT_MARK_SCHEDULED, List.of("Update on listed_origin", "listed_origin_by_url"));
    jdbi.useHandle(
        h ->
            expected.forEach(
                (name, indexes) -> {
                  String text = sql.get(name);
                  Query q = h.createQuery("EXPLAIN " + text);
                  Matcher m = Pattern.compile(":(\\w+)::(\\w+)\\[]").matcher(text);
                  while (m.find()) {
                    bindTwo(q, m.group(1), m.group(2));
                  }
                  if (text.contains(":now")) {
                    q.bind("now", NOW);
                  }
                  if (text.contains(":awaiting_after")) {
                    q.bindMap(FrontierRows.defaultCooldownBounds(NOW));
                  }
                  if (text.contains(":visit_type")) {
                    q.bind("visit_type", "git");
                  }
                  String plan = explain(q);
                  assertThat(plan)
                      .as(name + "\n" + plan)
                      .contains(indexes)
                      .doesNotContain("Anti Join")
                      .doesNotContain("Seq Scan on listed_origin")
                      .doesNotContain("Seq Scan on origin_visit_stats");
                  if (name == SqlQuery.VISIT_STATS_UPSERT || name == SqlQuery.VISIT_STATS_REPLACE) {
                    // The update reaches the rows in the sorted batch's order: two stats writers of
                    // the same urls mostly queue instead of deadlocking.
                    assertThat(plan)
                        .as(name + "\n" + plan)
                        .containsPattern("Sort Key: g\\.url, g\\.visit_type")
                        .containsPattern("Nested Loop.*\n *-> +CTE Scan on given");
                  }
                  if (name == SqlQuery.VISIT_MARK_SCHEDULED) {
                    assertThat(plan).as(name + "\n" + plan).doesNotContain("origin_visit_stats");
                  }
                }));
  }

  /** Binds a two-element array of the SQL type {@code type} to {@code name}. */
  private void bindTwo(Query q, String name, String type) {
    switch (type) {
      case "bigint" -> q.bind(name, PgArray.of(Long.class, List.of(1_000L, 2_000L)));
      case "integer" -> q.bind(name, PgArray.of(Integer.class, List.of(4, 1)));
      case "boolean" -> q.bind(name, PgArray.of(Boolean.class, List.of(true, false)));
      default ->
          q.bind(
              name,
              PgArray.of(
                  String.class,
                  name.startsWith("lister")
                      ? List.of(listerIds.get(3), listerIds.get(4))
                      : name.startsWith("visit_type")
                          ? List.of("git", "git")
                          : name.startsWith("extra")
                              ? List.of("{}", "{}")
                              : name.startsWith("last_visit_status")
                                  ? List.of("successful", "failed")
                                  : List.of("https://example.org/r/5", "https://example.org/r/6")));
    }
  }

  private static String explain(Query query) {
    return String.join("\n", query.mapTo(String.class).list());
  }
}
