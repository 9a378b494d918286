package dev.drover.engine;

import dev.drover.store.TaskWaiting;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Says what a runner that exits when idle is waiting for while nothing is due, e.g. "3 tasks retry
 * at 04:12:05; nothing else due": its log line and the progress line of {@code drover run}.
 */
public final class WaitNote {
  private static final DateTimeFormatter TODAY = DateTimeFormatter.ofPattern("HH:mm:ss");
  private static final DateTimeFormatter LATER = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private WaitNote() {}

  /**
   * The sentence for {@code w} seen at {@code now} in {@code zone}; null when it waits for none.
   */
  public static String describe(TaskWaiting w, Instant now, ZoneId zone) {
    if (w == null || w.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    if (w.retries() > 0) {
      parts.add(
          w.retries() == 1
              ? "1 task retries at " + at(w.firstRetry(), now, zone)
              : w.retries() + " tasks retry, the first at " + at(w.firstRetry(), now, zone));
    }
    if (w.later() > 0) {
      parts.add(
          w.later() == 1
              ? "1 one-shot task is due at " + at(w.firstLater(), now, zone)
              : w.later()
                  + " one-shot tasks are due, the first at "
                  + at(w.firstLater(), now, zone));
    }
    return String.join("; ", parts) + "; nothing else due";
  }

  private static String at(Instant t, Instant now, ZoneId zone) {
    if (t == null) {
      return "?";
    }
    DateTimeFormatter f = Duration.between(now, t).toHours() < 12 ? TODAY : LATER;
    return f.withZone(zone).format(t);
  }
}
