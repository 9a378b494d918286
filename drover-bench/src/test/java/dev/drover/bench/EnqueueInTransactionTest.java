package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.bench.Databases.Kind;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The measurement of creates in the application's transaction, small, on both databases. */
class EnqueueInTransactionTest {
  @ParameterizedTest
  @EnumSource(Kind.class)
  void timesEveryCallBothWaysAndCommitsEveryTask(Kind kind) throws Exception {
    EnqueueInTransaction.Timings t = EnqueueInTransaction.measure(kind, 700, 50);

    assertThat(t.lent()).hasSize(700);
    assertThat(t.own()).hasSize(700);
    assertThat(Arrays.stream(t.lent()).min().getAsLong()).as("shortest lent call").isPositive();
    assertThat(Arrays.stream(t.own()).min().getAsLong()).as("shortest own call").isPositive();
    // Each way created a task per call, warm-up included, and the application's were committed.
    assertThat(t.created()).isEqualTo(2 * (700 + 50));
  }
}
