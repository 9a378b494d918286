package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.testing.PostgresTemplate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What a {@link PgArray} binds reaches PostgreSQL element for element, nulls and every character
 * that array text would have to escape included, through the same casts the store's SQL files use.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgArrayTest {
  private String url;
  private Jdbi jdbi;

  @BeforeAll
  void open() {
    url = PostgresTemplate.migratedUrl();
    jdbi = Jdbi.create(url);
  }

  @AfterAll
  void drop() {
    PostgresTemplate.drop(url);
  }

  @Test
  void textsKeepEveryCharacterAndTheirNulls() {
    List<String> texts =
        Arrays.asList(
            "plain",
            "",
            "NULL",
            "with \"quotes\"",
            "back\\slash",
            "{braces},commas",
            "tab\tand\nline",
            "  spaces  ",
            "ünïcödé ✓",
            null,
            "{\"worker\":\"vm:1:ab\",\"result\":{}}");
    assertThat(roundTrip("text", String.class, texts)).isEqualTo(texts);
  }

  @Test
  void numbersAndBooleansKeepTheirValuesAndTheirNulls() {
    List<Long> longs = Arrays.asList(Long.MIN_VALUE, -1L, 0L, null, Long.MAX_VALUE);
    List<Integer> ints = Arrays.asList(Integer.MIN_VALUE, null, 7, Integer.MAX_VALUE);
    List<Boolean> booleans = Arrays.asList(true, null, false);
    assertThat(roundTrip("bigint", Long.class, longs)).isEqualTo(longs);
    assertThat(roundTrip("int", Integer.class, ints)).isEqualTo(ints);
    assertThat(roundTrip("boolean", Boolean.class, booleans)).isEqualTo(booleans);
  }

  @Test
  void anEmptyListIsAnEmptyArray() {
    long length =
        jdbi.withHandle(
            h ->
                h.createQuery("SELECT cardinality(:values::bigint[])")
                    .bind("values", PgArray.of(Long.class, List.of()))
                    .mapTo(Long.class)
                    .one());
    assertThat(length).isZero();
  }

  @Test
  void aThousandElementsArriveInOrder() {
    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < 1000; i++) {
      ids.add(i * 7919 % 1000);
    }
    assertThat(roundTrip("bigint", Long.class, ids)).isEqualTo(ids);
  }

  /** {@code values} bound as one array, cast to {@code sqlType[]}, and read back in order. */
  private <T> List<T> roundTrip(String sqlType, Class<T> type, List<T> values) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT v FROM unnest(:values::"
                        + sqlType
                        + "[]) WITH ORDINALITY AS u (v, i) ORDER BY i")
                .bind("values", PgArray.of(type, values))
                .map((rs, ctx) -> rs.getObject(1) == null ? null : rs.getObject(1, type))
                .list());
  }
}
