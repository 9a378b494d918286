package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Json;
import dev.drover.StaleDataException;
import dev.drover.ValidationException;
import dev.drover.frontier.Lister;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Listers: get-or-create by (name, instance), reads, and updates with optimistic locking. */
interface ListerContract extends FrontierContract {

  @Test
  default void getOrCreateCreatesOnceAndTheFirstDefinitionWins() {
    Instant t1 = NOW.minusSeconds(60);
    Lister created = frontier().listerGetOrCreate("github", null, "first-visits", t1);
    assertThat(created.id()).isNotNull();
    assertThat(created.instanceName()).isEmpty();
    assertThat(created.created()).isEqualTo(t1);
    assertThat(created.updated()).isEqualTo(t1);
    assertThat(created.currentState()).isEqualTo(Json.object());
    assertThat(created.firstVisitsQueuePrefix()).isEqualTo("first-visits");
    assertThat(created.lastListingFinishedAt()).isNull();

    Lister again = frontier().listerGetOrCreate("github", "", "other-prefix", NOW);
    assertThat(again).isEqualTo(created);
    assertThat(frontier().listerGet("github", null)).contains(created);
    assertThat(frontier().listerGet("github", "other")).isEmpty();

    Lister otherInstance = frontier().listerGetOrCreate("github", "enterprise", null, NOW);
    assertThat(otherInstance.id()).isNotEqualTo(created.id());
    assertThat(frontier().listerList())
        .extracting(Lister::instanceName)
        .containsExactly("", "enterprise");
  }

  @Test
  default void getByIdsSkipsUnknownIds() {
    Lister a = lister("a");
    Lister b = lister("b");
    assertThat(frontier().listerGetByIds(List.of(b.id(), UUID.randomUUID(), a.id())))
        .containsExactly(a, b);
    assertThat(frontier().listerGetByIds(List.of())).isEmpty();
  }

  @Test
  default void anUpdateKeepsTheStateAndMovesTheVersion() {
    Lister read = lister("gitlab");
    var state =
        Json.parseObject("state", "{\"page\": 3, \"nested\": {\"b\": [1, 2], \"a\": null}}");
    Lister updated =
        frontier()
            .listerUpdate(
                read.withCurrentState(state)
                    .withLastListingFinishedAt(NOW.minusSeconds(5))
                    .withFirstVisitsQueuePrefix("fv")
                    .withFirstVisitsScheduledAt(NOW.minusSeconds(1)),
                NOW);

    assertThat(updated.updated()).isEqualTo(NOW);
    assertThat(updated.currentState()).isEqualTo(state);
    assertThat(updated.lastListingFinishedAt()).isEqualTo(NOW.minusSeconds(5));
    assertThat(updated.firstVisitsQueuePrefix()).isEqualTo("fv");
    assertThat(updated.firstVisitsScheduledAt()).isEqualTo(NOW.minusSeconds(1));
    assertThat(updated.created()).isEqualTo(read.created());
    assertThat(frontier().listerGet("gitlab", "")).contains(updated);
  }

  @Test
  default void aStaleUpdateIsRefusedAndWritesNothing() {
    Lister read = lister("gitlab");
    Lister first =
        frontier().listerUpdate(read.withCurrentState(Json.parseObject("s", "{\"page\": 1}")), NOW);

    assertThatThrownBy(
            () ->
                frontier()
                    .listerUpdate(
                        read.withCurrentState(Json.parseObject("s", "{\"page\": 99}")),
                        NOW.plusSeconds(1)))
        .isInstanceOf(StaleDataException.class)
        .hasMessageContaining("stale data")
        .hasMessageContaining(read.id().toString());
    assertThat(frontier().listerGet("gitlab", "")).contains(first);
  }

  @Test
  default void twoUpdatesInTheSameMillisecondStillRefuseTheStaleOne() {
    Lister read = lister("gitlab");
    Lister first = frontier().listerUpdate(read, NOW);
    Lister second = frontier().listerUpdate(first, NOW);
    assertThat(second.updated())
        .as("the version moves even when the time does not")
        .isAfter(first.updated());
    assertThatThrownBy(() -> frontier().listerUpdate(first, NOW))
        .isInstanceOf(StaleDataException.class);
  }

  @Test
  default void updatingAnUnknownListerIsRefused() {
    Lister ghost = new Lister(UUID.randomUUID(), "ghost", "", NOW, null, NOW, null, null, null);
    assertThatThrownBy(() -> frontier().listerUpdate(ghost, NOW))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("id: unknown lister");
    assertThat(frontier().listerList()).isEmpty();
  }
}
