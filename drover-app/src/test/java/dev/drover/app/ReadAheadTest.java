package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The reader thread of {@code task add --file}: order, its failure in place, an early stop. */
class ReadAheadTest {
  /** 1, 2, ... up to {@code last}, then {@code end}: null, or an exception to throw. */
  private static Supplier<Integer> counting(int last, RuntimeException failure) {
    int[] n = {0};
    return () -> {
      if (n[0] == last) {
        if (failure != null) {
          throw failure;
        }
        return null;
      }
      return ++n[0];
    };
  }

  @Test
  void itemsComeInOrderAcrossBatches() {
    List<Integer> seen = new ArrayList<>();
    try (ReadAhead<Integer> items = new ReadAhead<>("test", counting(2_500, null))) {
      items.forEachRemaining(seen::add);
      assertThat(items.hasNext()).isFalse();
    }
    assertThat(seen).hasSize(2_500).startsWith(1, 2, 3).endsWith(2_499, 2_500);
  }

  @Test
  void theReadersFailureComesAfterTheItemsBeforeIt() {
    ValidationException bad = new ValidationException("tasks.jsonl:1502: priority", "bad");
    List<Integer> seen = new ArrayList<>();
    try (ReadAhead<Integer> items = new ReadAhead<>("test", counting(1_501, bad))) {
      assertThatThrownBy(() -> items.forEachRemaining(seen::add)).isSameAs(bad);
    }
    assertThat(seen).hasSize(1_501);
  }

  @Test
  void closingBeforeTheEndStopsTheReader() {
    ReadAhead<Integer> items = new ReadAhead<>("test", counting(Integer.MAX_VALUE, null));
    assertThat(items.next()).isEqualTo(1);
    items.close(); // returns once the reader has stopped, though it had far more to read
  }
}
