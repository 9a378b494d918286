package dev.drover.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A workload run several times on each system and database (`--rounds`), the systems taking turns
 * to go first, reported as one result: each figure is the median of the rounds, and each round's
 * figures and raw figures are kept under {@link #KEY}. On a machine whose speed moves by a third
 * from one minute to the next, one run per system can put Drover on either side of a target; the
 * median of several, and the range of the ratios paired round by round ({@link Ratios}), say which
 * side it is on.
 */
final class Rounds {
  /** The raw key under which a combined result keeps its rounds, in the order they ran. */
  static final String KEY = "rounds";

  private Rounds() {}

  /**
   * The systems of round {@code round} (from 1) in the order they run: the first of the last round
   * goes last, so each system in turn runs first, when the machine has been idle longest.
   */
  static List<String> order(List<String> systems, int round) {
    List<String> turned = new ArrayList<>(systems);
    if (!turned.isEmpty()) {
      Collections.rotate(turned, -((round - 1) % turned.size()));
    }
    return turned;
  }

  /**
   * One system's results on one database and workload, one per round, as a single result: failed if
   * any round failed (naming the round), else with each figure's median. A figure that was the same
   * in every round keeps its value as given (a count stays a count). Flags that a run finished
   * ({@code finished}, {@code *_finished}, {@code *_filled}) take their lowest value: a size that
   * did not finish in one round did not finish.
   */
  static Result combine(List<Result> rounds) {
    if (rounds.size() == 1) {
      return rounds.get(0);
    }
    Result first = rounds.get(0);
    for (int i = 0; i < rounds.size(); i++) {
      Result r = rounds.get(i);
      if (!r.ok()) {
        return new Result(
            r.system(),
            r.db(),
            r.workload(),
            Map.of(),
            Map.of(),
            "round " + (i + 1) + " of " + rounds.size() + ": " + r.error());
      }
    }
    Map<String, Number> figures = new LinkedHashMap<>();
    for (String key : first.figures().keySet()) {
      List<Number> values = rounds.stream().map(r -> r.figures().get(key)).toList();
      figures.put(key, combined(key, values));
    }
    Map<String, Object> raw = new LinkedHashMap<>();
    Object configuration = first.raw().get(Report.CONFIGURATION);
    if (configuration != null) {
      raw.put(Report.CONFIGURATION, configuration);
    }
    List<Map<String, Object>> each = new ArrayList<>();
    for (Result r : rounds) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("figures", r.figures());
      one.put("raw", r.raw());
      each.add(one);
    }
    raw.put(KEY, each);
    return new Result(first.system(), first.db(), first.workload(), figures, raw, null);
  }

  private static Number combined(String key, List<Number> values) {
    if (values.stream().allMatch(v -> Objects.equals(v, values.get(0)))) {
      return values.get(0);
    }
    double[] finite =
        values.stream()
            .filter(Objects::nonNull)
            .mapToDouble(Number::doubleValue)
            .filter(Double::isFinite)
            .sorted()
            .toArray();
    if (finite.length < values.size()) {
      return Double.NaN; // a round without this figure: no median to give
    }
    if (key.equals("finished") || key.endsWith("_finished") || key.endsWith("_filled")) {
      return finite[0];
    }
    double median = median(finite);
    boolean counts = values.stream().allMatch(v -> v instanceof Integer || v instanceof Long);
    // Counts stay counts (printed as such) when their median is one.
    return counts && median == Math.rint(median) ? (Number) (long) median : median;
  }

  /** The median of sorted values, at least one; the mean of the middle two for an even count. */
  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /**
   * Each round's figure {@code key} of a combined result, in round order; empty if the result was
   * not combined from rounds.
   */
  static List<Double> perRound(Result r, String key) {
    if (!(r.raw().get(KEY) instanceof List<?> each)) {
      return List.of();
    }
    List<Double> values = new ArrayList<>();
    for (Object round : each) {
      Object figures = round instanceof Map<?, ?> m ? m.get("figures") : null;
      Object value = figures instanceof Map<?, ?> f ? f.get(key) : null;
      values.add(value instanceof Number n ? n.doubleValue() : Double.NaN);
    }
    return values;
  }
}
