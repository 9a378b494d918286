package dev.drover.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class VisitRequestTest {

  @Test
  void defaultsAreTheReferenceOnes() {
    VisitRequest r = VisitRequest.of("git", 10, VisitPolicy.OLDEST_SCHEDULED_FIRST);
    assertThat(r.enabled()).isTrue();
    assertThat(r.dryRun()).isFalse();
    assertThat(r.tablesample()).isNull();
    assertThat(r.cooldowns())
        .isEqualTo(
            new Cooldowns(
                Duration.ofHours(12),
                Duration.ofDays(7),
                Duration.ofDays(14),
                Duration.ofDays(31)));
  }

  @Test
  void policiesParseByNameAndUnknownOnesAreListed() {
    assertThat(VisitPolicy.parse("already-visited-order-by-lag"))
        .isEqualTo(VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG);
    assertThatThrownBy(() -> VisitPolicy.parse(null))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "policy: unknown scheduling policy 'null' (expected one of oldest_scheduled_first, stop_after_success, "
                + "never_visited_oldest_update_first, already_visited_order_by_lag, origins_without_last_update, "
                + "first_visits_after_listing)");
  }

  @Test
  void badValuesNameTheirField() {
    assertThatThrownBy(() -> VisitRequest.of(" ", 1, VisitPolicy.OLDEST_SCHEDULED_FIRST))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("visit_type:");
    assertThatThrownBy(() -> VisitRequest.of("git", -5, VisitPolicy.OLDEST_SCHEDULED_FIRST))
        .isInstanceOf(ValidationException.class)
        .hasMessage("count: must not be negative, got -5");
    assertThatThrownBy(
            () ->
                VisitRequest.builder("git", 1, VisitPolicy.FIRST_VISITS_AFTER_LISTING)
                    .lister("gitlab", null)
                    .build())
        .as("a name alone may match several listers")
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("lister:");
    assertThat(new Cooldowns(Duration.ZERO, null, Duration.ofDays(1), null))
        .isEqualTo(new Cooldowns(null, null, Duration.ofDays(1), null));
  }
}
