package dev.drover.engine.command;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the last non-empty line of a log file from its end, so a command that wrote gigabytes costs
 * no more than one that wrote a line.
 */
final class OutputTail {
  /** Marks a line whose start lies before the window that was read. */
  static final String CUT = "…";

  private static final Logger log = LoggerFactory.getLogger(OutputTail.class);

  private OutputTail() {}

  /**
   * The last line of {@code file} that is not blank, stripped, read from the last {@code window}
   * bytes. A line cut by the window comes back as its tail prefixed with {@link #CUT}, so it can
   * never be mistaken for a whole line.
   */
  static Optional<String> lastLine(Path file, int window) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      long start = Math.max(0, size - window);
      // The byte before the window tells whether the window's first line is whole.
      long from = Math.max(0, start - 1);
      ByteBuffer buf = ByteBuffer.allocate((int) (size - from));
      while (buf.hasRemaining() && ch.read(buf, from + buf.position()) >= 0) {
        // read until full; a file that shrinks meanwhile ends the loop through read() == -1
      }
      boolean firstWhole = start == 0 || (buf.position() > 0 && buf.get(0) == '\n');
      int skip = start == from ? 0 : 1;
      String text =
          new String(buf.array(), skip, Math.max(0, buf.position() - skip), StandardCharsets.UTF_8);
      String[] lines = text.split("\n", -1);
      for (int i = lines.length - 1; i >= 0; i--) {
        String line = lines[i].strip();
        if (!line.isEmpty()) {
          return Optional.of(i == 0 && !firstWhole ? CUT + line : line);
        }
      }
      return Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      log.warn("cannot read the end of {}: {}", file, e.toString());
      return Optional.empty();
    }
  }
}
