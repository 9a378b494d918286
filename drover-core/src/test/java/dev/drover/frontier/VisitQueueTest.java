package dev.drover.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class VisitQueueTest {

  private static RandomGenerator fixed(double d) {
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new UnsupportedOperationException();
      }

      @Override
      public double nextDouble() {
        return d;
      }
    };
  }

  @Test
  void theDaysTable() {
    long[] expected = {1, 1, 2, 2, 2, 4, 16, 64, 256, 1024, 4096, 16384};
    for (int offset = 0; offset <= 11; offset++) {
      assertThat(VisitQueue.days(offset)).as("days(%d)", offset).isEqualTo(expected[offset]);
    }
  }

  @Test
  void eventfulVisitsTakeTwoOffOthersAddOneWithinZeroAndTen() {
    assertThat(VisitQueue.nextOffset(4, true)).isEqualTo(2);
    assertThat(VisitQueue.nextOffset(1, true)).isZero();
    assertThat(VisitQueue.nextOffset(4, false)).isEqualTo(5);
    assertThat(VisitQueue.nextOffset(10, false)).isEqualTo(10);
    assertThat(VisitQueue.nextOffset(11, false))
        .as("a stored 11 comes back within range")
        .isEqualTo(10);
  }

  @Test
  void positionsMoveByDaysOfTheOffsetWithTenPercentJitter() {
    assertThat(VisitQueue.nextPosition(1000, 4, fixed(0.5))).isEqualTo(1000 + 172_800);
    assertThat(VisitQueue.nextPosition(0, 4, fixed(0.0))).isEqualTo(155_520);
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 1000; i++) {
      assertThat(VisitQueue.nextPosition(0, 10, random)).isBetween(318_504_960L, 389_283_840L);
    }
  }
}
