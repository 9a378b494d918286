package dev.drover.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * How many tasks of each type a runner keeps claimed beyond its free worker slots: as many as its
 * workers finished of that type in the last window, or more if the current one is going faster.
 * Short tasks then find the next one already claimed while the loop writes the last batch, and a
 * pass claims and completes hundreds at once; slow tasks finish few per window, so they are claimed
 * for free slots only and stay available to other runners. Loop thread only.
 */
final class ClaimAhead {
  /** A cap per type, which also keeps a pass's statements well below the bound-parameter limits. */
  static final int MAX = 1000;

  private final Duration window;
  private Map<String, Integer> current = new HashMap<>();
  private Map<String, Integer> last = new HashMap<>();
  private Instant windowStart = Instant.MIN;

  /** {@code window} zero turns claiming ahead off. */
  ClaimAhead(Duration window) {
    this.window = window;
  }

  void finished(String type) {
    if (!window.isZero()) {
      current.merge(type, 1, Integer::sum);
    }
  }

  /** How many of {@code type} to keep claimed ahead at {@code now}. */
  int target(String type, Instant now) {
    if (window.isZero()) {
      return 0;
    }
    Instant windowEnd = windowStart.plus(window);
    if (!now.isBefore(windowEnd)) {
      last = now.isBefore(windowEnd.plus(window)) ? current : perWindow(current, now);
      current = new HashMap<>();
      windowStart = now;
    }
    return Math.min(MAX, Math.max(last.getOrDefault(type, 0), projected(type, now)));
  }

  /**
   * What finished in a window that ran on past its end, at its pace over one window: a runner whose
   * passes take longer than a window (hundreds of tasks written and claimed in each) keeps its
   * rate, and one that was idle has none left. Taking either as nothing made a busy runner claim
   * for its free slots only and climb back up, pass by pass.
   */
  private Map<String, Integer> perWindow(Map<String, Integer> finished, Instant now) {
    Map<String, Integer> paced = new HashMap<>();
    if (windowStart.equals(Instant.MIN)) {
      return paced; // no window was open yet
    }
    long elapsed = Duration.between(windowStart, now).toNanos();
    finished.forEach(
        (type, n) -> paced.put(type, (int) Math.min(MAX, n * window.toNanos() / elapsed)));
    return paced;
  }

  /**
   * What finished so far in the current window, at that pace over a whole window, once a quarter of
   * it has passed: a burst of short tasks is claimed ahead within a few passes rather than after a
   * whole window, and a lucky early moment counts at most four times over.
   */
  private int projected(String type, Instant now) {
    long elapsed = Duration.between(windowStart, now).toNanos();
    if (elapsed < window.toNanos() / 4) {
      return 0;
    }
    long sofar = current.getOrDefault(type, 0);
    return (int) Math.min(MAX, sofar * window.toNanos() / elapsed);
  }
}
