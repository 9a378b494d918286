package dev.drover.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * How many tasks of each type a runner keeps claimed beyond its free worker slots: as many as its
 * workers finished of that type in the last window, or as many as they would finish in a window at
 * the pace they ran the current one's, if that is more. Short tasks then find the next one already
 * claimed while the loop writes the last batch, and a pass claims and completes hundreds at once;
 * slow tasks finish few per window, so they are claimed for free slots only and stay available to
 * other runners. Loop thread only.
 */
final class ClaimAhead {
  /** A cap per type, which also keeps a pass's statements well below the bound-parameter limits. */
  static final int MAX = 1000;

  /** At most this many times what finished so far: a lucky early run cannot claim hundreds. */
  static final int GROWTH = 4;

  /** What finished of a type in the current window, and how long its workers ran it. */
  private static final class Tally {
    int finished;
    long ranNanos;
  }

  private final Duration window;
  private Map<String, Tally> current = new HashMap<>();
  private Map<String, Integer> last = new HashMap<>();
  private Instant windowStart = Instant.MIN;

  /** {@code window} zero turns claiming ahead off. */
  ClaimAhead(Duration window) {
    this.window = window;
  }

  /** A worker finished a task of {@code type} after running it for {@code ran}. */
  void finished(String type, Duration ran) {
    if (!window.isZero()) {
      Tally t = current.computeIfAbsent(type, k -> new Tally());
      t.finished++;
      t.ranNanos += ran.toNanos();
    }
  }

  /**
   * How many of {@code type}, which runs on at most {@code slots} workers, to keep claimed ahead.
   */
  int target(String type, int slots, Instant now) {
    if (window.isZero()) {
      return 0;
    }
    Instant windowEnd = windowStart.plus(window);
    if (!now.isBefore(windowEnd)) {
      last = now.isBefore(windowEnd.plus(window)) ? counts(current) : perWindow(current, now);
      current = new HashMap<>();
      windowStart = now;
    }
    return Math.min(MAX, Math.max(last.getOrDefault(type, 0), atTheirPace(type, slots)));
  }

  private static Map<String, Integer> counts(Map<String, Tally> tallies) {
    Map<String, Integer> counts = new HashMap<>();
    tallies.forEach((type, t) -> counts.put(type, t.finished));
    return counts;
  }

  /**
   * What finished in a window that ran on past its end, at its pace over one window: a runner whose
   * passes take longer than a window (hundreds of tasks written and claimed in each) keeps its
   * rate, and one that was idle has none left. Taking either as nothing made a busy runner claim
   * for its free slots only and climb back up, pass by pass.
   */
  private Map<String, Integer> perWindow(Map<String, Tally> finished, Instant now) {
    Map<String, Integer> paced = new HashMap<>();
    if (windowStart.equals(Instant.MIN)) {
      return paced; // no window was open yet
    }
    long elapsed = Duration.between(windowStart, now).toNanos();
    finished.forEach(
        (type, t) ->
            paced.put(type, (int) Math.min(MAX, (long) t.finished * window.toNanos() / elapsed)));
    return paced;
  }

  /**
   * What {@code slots} workers would finish in a whole window, each busy all of it, at the mean run
   * time of what finished so far in this one; at most {@link #GROWTH} times what finished. The pace
   * is the workers', not the window's: a runner that starts on a queue of short tasks claims for
   * its free slots, and those finish in a moment while the pass that claimed them is still writing.
   * Counted by the window's wall time, the claims grew by about half each pass; counted by the time
   * the workers ran, they reach hundreds within a few passes. A slow task finishes few per window
   * at any pace, so it is still claimed for free slots only.
   */
  private int atTheirPace(String type, int slots) {
    Tally t = current.get(type);
    if (t == null) {
      return 0;
    }
    double perWindow = (double) t.finished * slots * window.toNanos() / Math.max(1, t.ranNanos);
    return (int) Math.min(MAX, Math.min((long) GROWTH * t.finished, perWindow));
  }
}
