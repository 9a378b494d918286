package dev.drover.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Json;
import java.util.Random;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

class RowidBlockSampleTest {
  private static long[] blocks(long highestRowid, double percent, long seed) {
    String json = RowidBlockSample.blocks(highestRowid, percent, new Random(seed));
    return StreamSupport.stream(Json.read(json).spliterator(), false)
        .mapToLong(JsonNode::asLong)
        .toArray();
  }

  @Test
  void everyBlockIsKeptAtOneHundredPercent() {
    // Rowids 1 to 3,200 fall in blocks 0 to 100 (block 0 holds rowids 0 to 31).
    assertThat(blocks(3_200, 100, 1)).hasSize(101).startsWith(0, 1, 2).endsWith(99, 100);
  }

  @Test
  void keptBlocksAscendWithoutRepeatsAndStayInTheTable() {
    long[] kept = blocks(1_000_000, 10, 2);
    assertThat(kept).isSorted().doesNotHaveDuplicates();
    assertThat(kept[0]).isNotNegative();
    assertThat(kept[kept.length - 1]).isLessThanOrEqualTo(1_000_000 / RowidBlockSample.BLOCK_ROWS);
  }

  /**
   * Each of 312,501 blocks is kept with probability 0.1 %: about 312.5 of them, with a standard
   * deviation of about 17.7. Over 50 seeds the mean lies within 4 standard errors (10) of it.
   */
  @Test
  void aBlockIsKeptWithTheRequestedProbability() {
    long total = 0;
    for (long seed = 0; seed < 50; seed++) {
      total += blocks(10_000_000, 0.1, seed).length;
    }
    assertThat(total / 50.0).isBetween(302.5, 322.5);
  }

  @Test
  void anEmptyTableStillHasItsFirstBlockToDraw() {
    assertThat(blocks(0, 100, 3)).containsExactly(0);
  }
}
