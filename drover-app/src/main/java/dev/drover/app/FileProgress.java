package dev.drover.app;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Progress through a long file ({@code task add --file}, {@code origin record}) on stderr: on a
 * terminal a line rewritten in place twice a second, elsewhere (a log, a pipe) a plain line every
 * five seconds, so a short file prints nothing and a script's stderr holds only errors. The caller
 * reports after each chunk; no thread of its own, since the chunks come every few milliseconds.
 */
final class FileProgress implements AutoCloseable {
  private static final long TERMINAL_PERIOD_NS = 500_000_000L;
  private static final long LOG_PERIOD_NS = 5_000_000_000L;

  private final PrintWriter err;
  private final boolean terminal;
  private final LongSupplier nanos;
  private final LongFunction<String> done;
  private final String note;
  private final long started;
  private long next;
  private int shown;

  /**
   * @param done what {@code n} done means, such as "20,000 tasks read and checked"
   * @param note what follows the rate, such as "; committing at the end" (or "")
   */
  FileProgress(
      PrintWriter err,
      boolean terminal,
      LongSupplier nanos,
      LongFunction<String> done,
      String note) {
    this.err = err;
    this.terminal = terminal;
    this.nanos = nanos;
    this.done = done;
    this.note = note;
    this.started = nanos.getAsLong();
    this.next = started + (terminal ? TERMINAL_PERIOD_NS : LOG_PERIOD_NS);
  }

  /** {@code n} done so far. */
  void update(long n) {
    long now = nanos.getAsLong();
    if (now < next) {
      return;
    }
    next = now + (terminal ? TERMINAL_PERIOD_NS : LOG_PERIOD_NS);
    double seconds = (now - started) / 1e9;
    String line =
        String.format(
            Locale.ROOT,
            "drover: %s in %.0f s (%,.0f/s)%s",
            done.apply(n),
            seconds,
            n / Math.max(seconds, 1e-3),
            note);
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
