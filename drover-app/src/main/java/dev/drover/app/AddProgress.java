package dev.drover.app;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of a long {@code task add --file} on stderr: on a terminal a line rewritten in place
 * twice a second, elsewhere (a log, a pipe) a plain line every five seconds, so a short file prints
 * nothing and a script's stderr holds only errors. The caller reports after each chunk; no thread
 * of its own, since the chunks come every few milliseconds.
 */
final class AddProgress implements AutoCloseable {
  private static final long TERMINAL_PERIOD_NS = 500_000_000L;
  private static final long LOG_PERIOD_NS = 5_000_000_000L;

  private final PrintWriter err;
  private final boolean terminal;
  private final LongSupplier nanos;
  private final long started;
  private long next;
  private int shown;

  AddProgress(PrintWriter err, boolean terminal, LongSupplier nanos) {
    this.err = err;
    this.terminal = terminal;
    this.nanos = nanos;
    this.started = nanos.getAsLong();
    this.next = started + (terminal ? TERMINAL_PERIOD_NS : LOG_PERIOD_NS);
  }

  /** {@code tasks} lines have been read and written so far (not yet committed). */
  void update(long tasks) {
    long now = nanos.getAsLong();
    if (now < next) {
      return;
    }
    next = now + (terminal ? TERMINAL_PERIOD_NS : LOG_PERIOD_NS);
    double seconds = (now - started) / 1e9;
    String line =
        String.format(
            Locale.ROOT,
            "drover: %,d tasks read and checked in %.0f s (%,.0f/s); committing at the end",
            tasks,
            seconds,
            tasks / Math.max(seconds, 1e-3));
    if (terminal) {
      err.print("\r" + line + " ".repeat(Math.max(0, shown - line.length())));
      shown = line.length();
    } else {
      err.println(line);
    }
    err.flush();
  }

  /** Clears the terminal line, so the summary on stdout starts clean. */
  @Override
  public void close() {
    if (terminal && shown > 0) {
      err.print("\r" + " ".repeat(shown) + "\r");
      err.flush();
      shown = 0;
    }
  }
}
