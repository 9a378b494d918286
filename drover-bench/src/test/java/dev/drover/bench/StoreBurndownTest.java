package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.bench.Databases.Kind;
import dev.drover.model.RunHistory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The store's own burn-down, small, on both databases. */
class StoreBurndownTest {
  @ParameterizedTest
  @EnumSource(Kind.class)
  void completesEveryTaskAndKeepsEveryRun(Kind kind) throws Exception {
    StoreBurndown.Result r = StoreBurndown.measure(kind, 500, 64, RunHistory.ALL);

    assertThat(r.nanos()).isPositive();
    // The warm-up's tasks and the measured ones, each completed once, each with its run.
    assertThat(r.completed()).isEqualTo(1000);
    assertThat(r.runs()).isEqualTo(1000);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aTypeThatKeepsOnlyFailuresKeepsNoRunOfItsSuccesses(Kind kind) throws Exception {
    StoreBurndown.Result r = StoreBurndown.measure(kind, 300, 64, RunHistory.FAILURES);

    assertThat(r.completed()).isEqualTo(600);
    assertThat(r.runs()).isZero();
  }
}
