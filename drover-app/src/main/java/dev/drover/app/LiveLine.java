package dev.drover.app;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The one line a terminal shows live (drover run's progress), kept clear of the log: a log line
 * written meanwhile to stderr first erases the live line, is printed whole on a line of its own,
 * and the live line is drawn again below it. Without this the two run together on one line.
 */
final class LiveLine {
  /** Carriage return, then erase to the end of the line (ANSI, which every terminal knows). */
  private static final String ERASE = "\r\u001b[K";

  private final PrintWriter out;
  private final PrintStream err;
  private String shown = "";

  /**
   * @param out where the live line is drawn
   * @param err where log lines go; see {@link #logStream()}
   */
  LiveLine(PrintWriter out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Draws {@code text} in place of the current live line. */
  synchronized void show(String text) {
    out.print(ERASE + text);
    out.flush();
    shown = text;
  }

  /** Ends the live line where it stands: what follows starts on a new line. */
  synchronized void end() {
    if (!shown.isEmpty()) {
      out.println();
      out.flush();
      shown = "";
    }
  }

  /** A stream for log lines that writes each whole line to {@code err} around the live line. */
  PrintStream logStream() {
    return new PrintStream(new LineSplitter(), true, StandardCharsets.UTF_8);
  }

  private synchronized void logLine(byte[] line) {
    if (!shown.isEmpty()) {
      out.print(ERASE);
      out.flush();
    }
    err.write(line, 0, line.length);
    err.flush();
    if (!shown.isEmpty()) {
      out.print(shown);
      out.flush();
    }
  }

  /** Collects bytes up to each newline, so that a log line is never cut by a redraw. */
  private final class LineSplitter extends OutputStream {
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      pending.write(b);
      if (b == '\n') {
        logLine(pending.toByteArray());
        pending.reset();
      }
    }

    @Override
    public synchronized void close() {
      if (pending.size() > 0) {
        logLine(pending.toByteArray());
        pending.reset();
      }
    }
  }
}
