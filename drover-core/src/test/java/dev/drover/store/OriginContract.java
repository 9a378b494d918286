package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.frontier.ListedOrigin;
import dev.drover.frontier.Lister;
import dev.drover.frontier.OriginPage;
import dev.drover.frontier.OriginQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Listed origins: recording listings and reading them back in pages. */
interface OriginContract extends FrontierContract {

  @Test
  default void recordingAgainKeepsFirstSeenAndOverwritesWhatTheListerSays() {
    Lister l = lister("github");
    Instant t1 = NOW.minusSeconds(3600);
    ListedOrigin first =
        ListedOrigin.of(l.id(), "https://a", GIT)
            .withLastUpdate(NOW.minusSeconds(7200))
            .withExtraLoaderArguments(Json.parseObject("x", "{\"branch\": \"main\"}"))
            .withFork(true, "https://upstream");
    List<ListedOrigin> stored = frontier().originRecord(List.of(first), t1);
    assertThat(stored).hasSize(1);
    ListedOrigin a = stored.get(0);
    assertThat(a.firstSeen()).isEqualTo(t1);
    assertThat(a.lastSeen()).isEqualTo(t1);
    assertThat(a.enabled()).isTrue();
    assertThat(a.lastUpdate()).isEqualTo(NOW.minusSeconds(7200));
    assertThat(a.extraLoaderArguments()).isEqualTo(Json.parseObject("x", "{\"branch\": \"main\"}"));
    assertThat(a.isFork()).isTrue();
    assertThat(a.forkedFromUrl()).isEqualTo("https://upstream");

    ListedOrigin again = ListedOrigin.of(l.id(), "https://a", GIT).withEnabled(false);
    ListedOrigin b = frontier().originRecord(List.of(again), NOW).get(0);
    assertThat(b.firstSeen()).isEqualTo(t1);
    assertThat(b.lastSeen()).isEqualTo(NOW);
    assertThat(b.enabled()).isFalse();
    assertThat(b.lastUpdate()).as("a listing without last_update overwrites it").isNull();
    assertThat(b.extraLoaderArguments()).isEqualTo(Json.object());
    assertThat(b.isFork()).isNull();
    assertThat(b.forkedFromUrl()).isNull();
    assertThat(listedOrigin(l, "https://a")).isEqualTo(b);
  }

  /**
   * A recording returns each row exactly as a read finds it: new rows and rows listed before, times
   * with parts below a millisecond, extra loader arguments that the database changes (jsonb has no
   * negative zero), in a batch of PostgreSQL's statement without ON CONFLICT and in one past its
   * limit.
   */
  @ParameterizedTest
  @ValueSource(ints = {50, PostgresSql.RECORDING_WITHOUT_CONFLICT_LIMIT + 1})
  default void aRecordingReturnsEachRowAsAReadFindsIt(int size) {
    Lister l = lister("github");
    var arguments =
        Json.parseObject(
            "x", "{\"b\": -0.0, \"a\": [1E+2, \"\\u00e9\"], \"n\": {\"z\": true, \"y\": null}}");
    List<ListedOrigin> batch = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      ListedOrigin o = ListedOrigin.of(l.id(), "https://r/" + i, GIT);
      batch.add(
          i % 3 == 0
              ? o
              : o.withLastUpdate(NOW.minusSeconds(7_919L * i).plusNanos(999_999_999L - i))
                  .withExtraLoaderArguments(arguments)
                  .withFork(i % 2 == 0, "https://upstream/" + i));
    }
    Instant earlier = NOW.minusSeconds(60).plusNanos(123_456_789);
    Instant at = NOW.plusNanos(987_654_321);
    frontier().originRecord(batch.subList(0, 20), earlier);

    List<ListedOrigin> stored = frontier().originRecord(batch, at);

    List<ListedOrigin> read =
        frontier().originList(OriginQuery.ENABLED.enabled(null).limit(10_000)).origins();
    assertThat(stored).containsExactlyInAnyOrderElementsOf(read);
    assertThat(stored).extracting(ListedOrigin::url).isEqualTo(urls(batch));
    assertThat(stored.get(1).firstSeen()).isEqualTo(Instant.ofEpochMilli(earlier.toEpochMilli()));
    assertThat(stored.get(size - 1).firstSeen()).isEqualTo(Instant.ofEpochMilli(at.toEpochMilli()));
    if (store().dialect() == Dialect.POSTGRESQL) {
      assertThat(stored.get(1).extraLoaderArguments())
          .as("jsonb rewrote the arguments, so the batch's own would not do")
          .isNotEqualTo(arguments);
    }
  }

  @Test
  default void duplicatesInABatchCollapseAndTheLastOneWins() {
    Lister l = lister("github");
    List<ListedOrigin> stored =
        frontier()
            .originRecord(
                List.of(
                    ListedOrigin.of(l.id(), "https://a", GIT).withLastUpdate(NOW.minusSeconds(10)),
                    ListedOrigin.of(l.id(), "https://b", GIT),
                    ListedOrigin.of(l.id(), "https://a", GIT).withLastUpdate(NOW.minusSeconds(5))),
                NOW);
    assertThat(stored).extracting(ListedOrigin::url).containsExactly("https://a", "https://b");
    assertThat(stored.get(0).lastUpdate()).isEqualTo(NOW.minusSeconds(5));
    assertThat(frontier().originList(OriginQuery.ENABLED).origins()).hasSize(2);
  }

  @Test
  default void theSameUrlUnderTwoListersOrVisitTypesIsTwoRows() {
    Lister a = lister("a");
    Lister b = lister("b");
    listed(
        NOW,
        ListedOrigin.of(a.id(), "https://x", GIT),
        ListedOrigin.of(a.id(), "https://x", "hg"),
        ListedOrigin.of(b.id(), "https://x", GIT));
    assertThat(frontier().originList(OriginQuery.ENABLED.url("https://x")).origins()).hasSize(3);
  }

  @Test
  default void anUnknownListerIsRefusedAndNothingIsWritten() {
    Lister l = lister("github");
    UUID ghost = UUID.randomUUID();
    List<ListedOrigin> batch =
        List.of(
            ListedOrigin.of(l.id(), "https://a", GIT), ListedOrigin.of(ghost, "https://b", GIT));
    assertThatThrownBy(() -> frontier().originRecord(batch, NOW))
        .isInstanceOf(ValidationException.class)
        .hasMessage("lister_id: unknown lister [" + ghost + "]");
    assertThat(frontier().originList(OriginQuery.ENABLED.enabled(null)).origins()).isEmpty();
  }

  @Test
  default void listingFiltersByListerUrlUrlsAndEnabled() {
    Lister a = lister("a");
    Lister b = lister("b");
    listed(
        NOW,
        ListedOrigin.of(a.id(), "https://1", GIT),
        ListedOrigin.of(a.id(), "https://2", GIT).withEnabled(false),
        ListedOrigin.of(b.id(), "https://1", GIT),
        ListedOrigin.of(b.id(), "https://3", GIT));

    assertThat(keys(OriginQuery.ENABLED))
        .containsExactlyInAnyOrder("a https://1", "b https://1", "b https://3");
    assertThat(keys(OriginQuery.ENABLED.enabled(false))).containsExactly("a https://2");
    assertThat(keys(OriginQuery.ENABLED.enabled(null).lister(a.id())))
        .containsExactly("a https://1", "a https://2");
    assertThat(keys(OriginQuery.ENABLED.url("https://1")))
        .containsExactlyInAnyOrder("a https://1", "b https://1");
    assertThat(keys(OriginQuery.ENABLED.urls(List.of("https://3", "https://2"))))
        .containsExactly("b https://3");
    assertThat(keys(OriginQuery.ENABLED.urls(List.of("https://3")).url("https://1")))
        .as("url wins over urls")
        .containsExactlyInAnyOrder("a https://1", "b https://1");
    assertThat(keys(OriginQuery.ENABLED.lister(b.id()).url("https://1")))
        .containsExactly("b https://1");
    assertThat(keys(OriginQuery.ENABLED.lister(UUID.randomUUID()))).isEmpty();
  }

  private List<String> keys(OriginQuery q) {
    Lister a = frontier().listerGet("a", "").orElseThrow();
    return frontier().originList(q).origins().stream()
        .map(o -> (o.listerId().equals(a.id()) ? "a " : "b ") + o.url())
        .toList();
  }

  /**
   * 18 rows where rows share (lister, url) across two visit types, so that page boundaries fall
   * between them: every page size reads every row exactly once, in key order.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 18})
  default void pagesReadEveryRowOnceWhateverThePageSize(int pageSize) {
    List<ListedOrigin> batch = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      Lister l = lister(name);
      for (String url : List.of("https://x/1", "https://x/2", "https://x/3")) {
        batch.add(ListedOrigin.of(l.id(), url, "git"));
        batch.add(ListedOrigin.of(l.id(), url, "hg"));
      }
    }
    frontier().originRecord(batch, NOW);
    List<String> all = keysOf(frontier().originList(OriginQuery.ENABLED.limit(1000)).origins());
    assertThat(all).hasSize(18).doesNotHaveDuplicates();

    List<String> paged = new ArrayList<>();
    int pages = 0;
    String token = null;
    do {
      OriginPage page = frontier().originList(OriginQuery.ENABLED.limit(pageSize).page(token));
      assertThat(page.origins()).isNotEmpty().hasSizeLessThanOrEqualTo(pageSize);
      paged.addAll(keysOf(page.origins()));
      token = page.nextPageToken();
      pages++;
    } while (token != null);

    assertThat(paged).as("no row skipped, none repeated, in order").isEqualTo(all);
    assertThat(pages).as("no empty last page").isEqualTo((18 + pageSize - 1) / pageSize);
  }

  @Test
  default void pagesAlsoWorkWithFilters() {
    Lister l = lister("a");
    for (int i = 0; i < 10; i++) {
      listed(NOW, ListedOrigin.of(l.id(), "https://" + i, GIT).withEnabled(i % 3 != 0));
    }
    OriginPage first = frontier().originList(OriginQuery.ENABLED.lister(l.id()).limit(4));
    OriginPage second =
        frontier()
            .originList(OriginQuery.ENABLED.lister(l.id()).limit(4).page(first.nextPageToken()));
    assertThat(first.origins()).hasSize(4);
    assertThat(second.origins()).hasSize(2).allMatch(ListedOrigin::enabled);
    assertThat(second.nextPageToken()).isNull();
  }

  @Test
  default void aForgedPageTokenIsRefused() {
    assertThatThrownBy(() -> frontier().originList(OriginQuery.ENABLED.page("not a token")))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("page_token:");
  }

  private static List<String> keysOf(List<ListedOrigin> origins) {
    return origins.stream().map(o -> o.listerId() + " " + o.url() + " " + o.visitType()).toList();
  }
}
