package dev.drover.store;

import java.util.random.RandomGenerator;

/**
 * SQLite's table sample: blocks of {@link #BLOCK_ROWS} consecutive rowids, each kept with the
 * requested probability, which is what PostgreSQL's {@code TABLESAMPLE SYSTEM} does with pages. A
 * grab then reads only the kept blocks, each by one rowid range, where keeping each row with that
 * probability would read the whole table to decide.
 */
final class RowidBlockSample {
  /**
   * Rows per block: about one SQLite page of listed origins (4 KiB of rows of 100–200 bytes), so
   * that a block costs one b-tree descent and a page or two, as a sampled page does on PostgreSQL.
   */
  static final int BLOCK_ROWS = 32;

  private RowidBlockSample() {}

  /**
   * The kept blocks of a table whose rowids go up to {@code highestRowid}, ascending, as a JSON
   * array of block numbers (block {@code n} holds rowids {@code n * BLOCK_ROWS} to {@code (n + 1) *
   * BLOCK_ROWS - 1}). Each block is kept independently with probability {@code percent} / 100; the
   * gaps between kept blocks are drawn directly (geometric), so the cost follows the blocks kept,
   * not the table's size.
   */
  static String blocks(long highestRowid, double percent, RandomGenerator random) {
    long blockCount = highestRowid / BLOCK_ROWS + 1;
    double share = percent / 100;
    StringBuilder json = new StringBuilder("[");
    // log(1 - share) < 0; with share = 1 it is -infinity and every gap is 0.
    double logMiss = Math.log1p(-share);
    double block = -1;
    while (true) {
      // Blocks skipped before the next kept one: floor(log(U) / log(1 - share)), U in (0, 1].
      block += 1 + Math.floor(Math.log(1 - random.nextDouble()) / logMiss);
      if (block >= blockCount) {
        break;
      }
      json.append(json.length() == 1 ? "" : ",").append((long) block);
    }
    return json.append(']').toString();
  }
}
