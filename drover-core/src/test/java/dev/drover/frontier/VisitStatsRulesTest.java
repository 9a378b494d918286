package dev.drover.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The result rules on their own; the store contract runs the same scenarios through the database.
 */
class VisitStatsRulesTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final RandomGenerator NO_JITTER =
      new RandomGenerator() {
        @Override
        public long nextLong() {
          throw new UnsupportedOperationException();
        }

        @Override
        public double nextDouble() {
          return 0.5;
        }
      };

  private static Optional<VisitStatsRules.Outcome> apply(
      OriginVisitStats s, VisitStatus status, String snapshot, int day) {
    return VisitStatsRules.apply(
        s,
        new VisitResult("u", "git", T.plusSeconds(86_400L * day), status, snapshot),
        0,
        NO_JITTER);
  }

  @Test
  void unfinishedAndOlderResultsChangeNothing() {
    OriginVisitStats visited =
        OriginVisitStats.initial("u", "git")
            .withLastVisit(T.plusSeconds(86_400), LastVisitStatus.FAILED);
    assertThat(apply(visited, VisitStatus.ONGOING, null, 5)).isEmpty();
    assertThat(apply(visited, VisitStatus.FULL, "s", 1)).as("same date").isEmpty();
    assertThat(apply(visited, VisitStatus.FULL, "s", 0)).as("older").isEmpty();
    assertThat(apply(visited, VisitStatus.FULL, "s", 2)).isPresent();
  }

  @Test
  void theThirdFailureOfTheSameKindDisables() {
    OriginVisitStats s = OriginVisitStats.initial("u", "git");
    for (int day = 1; day <= 3; day++) {
      VisitStatsRules.Outcome o = apply(s, VisitStatus.NOT_FOUND, null, day).orElseThrow();
      assertThat(o.disable()).as("visit %d", day).isEqualTo(day == 3);
      assertThat(o.stats().successiveVisits()).isEqualTo(day);
      s = o.stats();
    }
  }

  @Test
  void aSuccessKeepsTheLaterSuccessTime() {
    OriginVisitStats s =
        apply(OriginVisitStats.initial("u", "git"), VisitStatus.FULL, "a", 1).orElseThrow().stats();
    OriginVisitStats after = apply(s, VisitStatus.PARTIAL, "a", 2).orElseThrow().stats();
    assertThat(after.lastSuccessful()).isEqualTo(T.plusSeconds(2 * 86_400));
    assertThat(after.nextPositionOffset()).as("same snapshot: uneventful").isEqualTo(5);
  }
}
