package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the rounds of `--rounds` become one result, and how a ratio shows their range. */
class RoundsTest {
  @Test
  void eachSystemGoesFirstInTurn() {
    List<String> systems = List.of("drover", "db-scheduler", "graphile-worker");

    assertThat(Rounds.order(systems, 1))
        .containsExactly("drover", "db-scheduler", "graphile-worker");
    assertThat(Rounds.order(systems, 2))
        .containsExactly("db-scheduler", "graphile-worker", "drover");
    assertThat(Rounds.order(systems, 3))
        .containsExactly("graphile-worker", "drover", "db-scheduler");
    assertThat(Rounds.order(systems, 4)).isEqualTo(Rounds.order(systems, 1));
    assertThat(Rounds.order(List.of(), 2)).isEmpty();
  }

  @Test
  void eachFigureIsTheMedianOfTheRoundsAndEveryRoundIsKept() {
    Result combined = rounds("drover", 20_000.0, 26_000.0, 14_000.0);

    assertThat(combined.ok()).isTrue();
    assertThat(combined.figures().get("jobs_per_s")).isEqualTo(20_000.0);
    // The same in every round: kept as given, so a count is still printed as one.
    assertThat(combined.figures().get("tasks")).isEqualTo(100_000);
    assertThat(Rounds.perRound(combined, "jobs_per_s"))
        .containsExactly(20_000.0, 26_000.0, 14_000.0);
    assertThat(combined.raw()).containsKey(Report.CONFIGURATION);
  }

  @Test
  void anEvenCountTakesTheMeanOfTheMiddleTwo() {
    Result combined = rounds("drover", 4.0, 1.0, 3.0, 2.0);

    assertThat(combined.figures().get("jobs_per_s")).isEqualTo(2.5);
  }

  @Test
  void aCountStaysACountWhenItsMedianIsOne() {
    Result combined =
        Rounds.combine(
            List.of(
                withBacklog(burndown("drover", 10, 4.0, 1), 1),
                withBacklog(burndown("drover", 10, 4.0, 1), 0),
                withBacklog(burndown("drover", 10, 4.0, 1), 1)));

    assertThat(combined.figures().get("backlog")).isEqualTo(1L);
    assertThat(Report.format(combined.figures().get("backlog"))).isEqualTo("1");
  }

  @Test
  void aSizeThatDidNotFinishInOneRoundDidNotFinish() {
    Result combined =
        Rounds.combine(
            List.of(
                burndown("drover", 10, 4.0, 1),
                burndown("drover", 10, 1.0, 0),
                burndown("drover", 10, 3.0, 1)));

    assertThat(combined.figures().get("jobs_per_s_10000_finished").doubleValue()).isZero();
  }

  @Test
  void aFailedRoundFailsTheResultAndIsNamed() {
    Result failed =
        Rounds.combine(
            List.of(
                burndown("drover", 10, 4.0, 1),
                Result.failed(
                    "drover", "postgres", Burndown.NAME, new IllegalStateException("x"))));

    assertThat(failed.ok()).isFalse();
    assertThat(failed.error()).isEqualTo("round 2 of 2: java.lang.IllegalStateException: x");
  }

  @Test
  void aRatioGivesTheRangeOfTheRoundsPairedInOrder() {
    Result drover = rounds("drover", 20_000.0, 30_000.0, 18_000.0);
    Result peer = rounds("db-scheduler", 10_000.0, 12_000.0, 12_000.0);

    String table =
        Ratios.table(
            List.of(new Workload.Ratio("jobs_per_s", "burn-down jobs/s", true)),
            List.of(drover, peer));

    // Medians 20,000 / 12,000; by round 2.0, 2.5 and 1.5.
    assertThat(table)
        .contains(
            "| db-scheduler | postgres | 1.67× (20000 / 12000; by round 1.50–2.50×, median 2.00×) |");
  }

  @Test
  void oneRoundIsReportedAsBefore() {
    Result one = burndown("drover", 10, 20_000.0, 1);

    assertThat(Rounds.combine(List.of(one))).isSameAs(one);
    assertThat(
            Ratios.table(
                List.of(new Workload.Ratio("jobs_per_s", "burn-down jobs/s", true)),
                List.of(one, burndown("db-scheduler", 10, 10_000.0, 1))))
        .contains("| db-scheduler | postgres | 2.00× (20000 / 10000) |");
  }

  /** One burn-down of 100,000 per rate, all finished, combined. */
  private static Result rounds(String system, double... jobsPerS) {
    List<Result> each = new ArrayList<>();
    for (double rate : jobsPerS) {
      each.add(burndown(system, 100_000, rate, 1));
    }
    return Rounds.combine(each);
  }

  private static Result withBacklog(Result r, int backlog) {
    Map<String, Number> figures = new LinkedHashMap<>(r.figures());
    figures.put("backlog", backlog);
    return new Result(r.system(), r.db(), r.workload(), figures, r.raw(), null);
  }

  private static Result burndown(String system, int tasks, double jobsPerS, int finished) {
    Map<String, Number> figures = new LinkedHashMap<>();
    figures.put("tasks", tasks);
    figures.put("jobs_per_s", jobsPerS);
    figures.put("jobs_per_s_10000_finished", finished);
    return new Result(
        system,
        "postgres",
        Burndown.NAME,
        figures,
        Map.of(Report.CONFIGURATION, Map.of("workers", 8)),
        null);
  }
}
