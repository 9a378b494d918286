package dev.drover.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.model.TaskPriority;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrioritySharesTest {
  /** Pretends each level has {@code available} rows and records what was asked for. */
  static Map<TaskPriority, Integer> asked(
      int budget, Map<TaskPriority, Integer> available, List<TaskPriority> out) {
    Map<TaskPriority, Integer> asked = new EnumMap<>(TaskPriority.class);
    out.addAll(
        PriorityShares.DEFAULT.take(
            budget,
            (p, n) -> {
              asked.put(p, n);
              return Collections.nCopies(Math.min(n, available.getOrDefault(p, 0)), p);
            }));
    return asked;
  }

  @Test
  void fullLevelsGetTheirShareRoundedUpWithinTheBudget() {
    List<TaskPriority> got = new java.util.ArrayList<>();
    Map<TaskPriority, Integer> asked =
        asked(
            10, Map.of(TaskPriority.HIGH, 99, TaskPriority.NORMAL, 99, TaskPriority.LOW, 99), got);
    assertThat(asked)
        .containsExactly(
            Map.entry(TaskPriority.HIGH, 5),
            Map.entry(TaskPriority.NORMAL, 3),
            Map.entry(TaskPriority.LOW, 2));
    assertThat(got).hasSize(10);
  }

  @Test
  void roundingUpNeverExceedsTheBudget() {
    List<TaskPriority> got = new java.util.ArrayList<>();
    Map<TaskPriority, Integer> asked =
        asked(3, Map.of(TaskPriority.HIGH, 99, TaskPriority.NORMAL, 99, TaskPriority.LOW, 99), got);
    // ceil(1.5) = 2 high, then ceil(0.9) = 1 normal; low has nothing left.
    assertThat(asked)
        .containsExactly(Map.entry(TaskPriority.HIGH, 2), Map.entry(TaskPriority.NORMAL, 1));
    assertThat(got).hasSize(3);
  }

  @Test
  void shortfallCascadesDown() {
    List<TaskPriority> got = new java.util.ArrayList<>();
    Map<TaskPriority, Integer> asked =
        asked(10, Map.of(TaskPriority.HIGH, 1, TaskPriority.LOW, 99), got);
    // high wants 5, finds 1: normal wants 3 + 4 = 7, finds 0: low wants min(9, 2 + 7) = 9.
    assertThat(asked)
        .containsExactly(
            Map.entry(TaskPriority.HIGH, 5),
            Map.entry(TaskPriority.NORMAL, 7),
            Map.entry(TaskPriority.LOW, 9));
    assertThat(got).hasSize(10);
  }

  @Test
  void sharesMustAddUpToOne() {
    assertThatThrownBy(() -> new PriorityShares(0.5, 0.5, 0.5))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("priority_shares:");
    assertThatThrownBy(() -> new PriorityShares(1.2, -0.1, -0.1))
        .isInstanceOf(ValidationException.class);
  }
}
