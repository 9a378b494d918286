package dev.drover.schedule;

import static dev.drover.ValidationException.check;

import dev.drover.model.TaskPriority;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * How a grab's priority budget is split between high, normal and low tasks, so that low never
 * starves. Each level wants {@code ceil(budget × share)}; what a level leaves unused cascades to
 * the next one down; no level takes more than what is left of the budget.
 */
public record PriorityShares(double high, double normal, double low) {
  public static final PriorityShares DEFAULT = new PriorityShares(0.5, 0.3, 0.2);

  public PriorityShares {
    check(high >= 0 && normal >= 0 && low >= 0, "priority_shares", "shares must not be negative");
    check(
        Math.abs(high + normal + low - 1.0) < 1e-9,
        "priority_shares",
        "shares must add up to 1, got " + (high + normal + low));
  }

  public double share(TaskPriority p) {
    return switch (p) {
      case HIGH -> high;
      case NORMAL -> normal;
      case LOW -> low;
    };
  }

  /**
   * Fetches up to {@code budget} rows, level by level from high to low, asking {@code fetch} for at
   * most the wanted number of each level. Returns the rows in level order.
   */
  public <T> List<T> take(int budget, BiFunction<TaskPriority, Integer, List<T>> fetch) {
    List<T> taken = new ArrayList<>();
    int shortfall = 0;
    for (TaskPriority level : TaskPriority.values()) {
      int remaining = budget - taken.size();
      int wanted = Math.min(remaining, (int) Math.ceil(budget * share(level)) + shortfall);
      List<T> rows = wanted > 0 ? fetch.apply(level, wanted) : List.of();
      taken.addAll(rows);
      shortfall = wanted - rows.size();
    }
    return taken;
  }
}
