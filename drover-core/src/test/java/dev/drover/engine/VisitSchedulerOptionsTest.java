package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.engine.VisitSchedulerOptions.Share;
import dev.drover.frontier.VisitPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class VisitSchedulerOptionsTest {

  @Test
  void theReferenceDefaults() {
    assertThat(VisitSchedulerOptions.defaultShares("git"))
        .containsExactly(
            new Share(VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG, 49, 0.1),
            new Share(VisitPolicy.NEVER_VISITED_OLDEST_UPDATE_FIRST, 49, 0.1),
            new Share(VisitPolicy.ORIGINS_WITHOUT_LAST_UPDATE, 2, 0.1));
    assertThat(VisitSchedulerOptions.defaultShares("svn"))
        .extracting(Share::weight)
        .containsExactly(49.0, 49.0, 2.0);
    assertThat(VisitSchedulerOptions.defaultShares("svn"))
        .extracting(Share::tablesample)
        .containsOnlyNulls();
    assertThat(VisitSchedulerOptions.defaultShares("pypi"))
        .extracting(Share::weight)
        .containsExactly(40.0, 40.0, 20.0);
    assertThat(VisitSchedulerOptions.defaultShares("tarball-directory"))
        .containsExactly(new Share(VisitPolicy.STOP_AFTER_SUCCESS, 100, null));
    assertThat(VisitSchedulerOptions.defaults("hg").taskType()).isEqualTo("load-hg");
  }

  @Test
  void badPolicyListsAreRefused() {
    VisitSchedulerOptions git = VisitSchedulerOptions.defaults("git");
    Share lag = new Share(VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG, 1, null);
    assertThatThrownBy(() -> git.withShares(List.of(lag, lag)))
        .isInstanceOf(ValidationException.class)
        .hasMessage("scheduling_policy: policy already_visited_order_by_lag is given twice");
    assertThatThrownBy(
            () ->
                git.withShares(
                    List.of(new Share(VisitPolicy.ALREADY_VISITED_ORDER_BY_LAG, 0, null))))
        .isInstanceOf(ValidationException.class)
        .hasMessage("scheduling_policy: the weights add up to zero");
    assertThatThrownBy(() -> git.withShares(List.of())).isInstanceOf(ValidationException.class);
    assertThatThrownBy(() -> new Share(VisitPolicy.FIRST_VISITS_AFTER_LISTING, 1, null))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("policy:");
    assertThatThrownBy(() -> new Share(VisitPolicy.STOP_AFTER_SUCCESS, -1, null))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("weight:");
  }
}
