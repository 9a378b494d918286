package dev.drover;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a user's UTF-8 text file one line at a time, so a file of millions of lines is never held
 * whole. A byte-order mark at the start is dropped, a line ends at {@code \n} or {@code \r\n}, and
 * bytes that are not UTF-8 are refused with the line and column they are on.
 *
 * <p>Lines are split on the byte {@code \n} before decoding: in UTF-8 that byte never occurs inside
 * a multi-byte character, so each line decodes on its own and an error names its own line, not the
 * line where a read-ahead buffer happened to end.
 */
public final class TextLines implements Closeable {
  private final String field;
  private final Path file;
  private final InputStream in;
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final byte[] buffer = new byte[1 << 16];
  private int pos;
  private int limit;
  private byte[] line = new byte[256];
  private int number;
  private boolean atEnd;

  private TextLines(String field, Path file, InputStream in) {
    this.field = field;
    this.file = file;
    this.in = in;
  }

  /** Opens {@code file}; a missing or unreadable one is refused naming {@code field}. */
  public static TextLines open(String field, Path file) {
    TextFiles.checkReadable(field, file);
    try {
      return new TextLines(field, file, Files.newInputStream(file));
    } catch (AccessDeniedException e) {
      throw new ValidationException(field, "permission denied: cannot read '" + file + "'");
    } catch (IOException e) {
      throw new ValidationException(field, "cannot read '" + file + "': " + e.getMessage());
    }
  }

  /** The next line without its line break, or null at the end of the file. */
  public String next() {
    if (atEnd) {
      return null;
    }
    int length = 0;
    while (true) {
      if (pos == limit && !fill()) {
        atEnd = true;
        if (length == 0) {
          return null;
        }
        break;
      }
      int end = pos;
      while (end < limit && buffer[end] != '\n') {
        end++;
      }
      if (length + end - pos > line.length) {
        line = Arrays.copyOf(line, Math.max(line.length * 2, length + end - pos));
      }
      System.arraycopy(buffer, pos, line, length, end - pos);
      length += end - pos;
      pos = end;
      if (end < limit) {
        pos++; // the line break
        break;
      }
    }
    number++;
    int from = 0;
    if (number == 1
        && length >= 3
        && (line[0] & 0xff) == 0xef
        && (line[1] & 0xff) == 0xbb
        && (line[2] & 0xff) == 0xbf) {
      from = 3; // a byte-order mark, as spreadsheet programs write: not part of the first line
    }
    if (length > from && line[length - 1] == '\r') {
      length--;
    }
    return decode(from, length);
  }

  private boolean fill() {
    try {
      int n = in.read(buffer);
      pos = 0;
      limit = Math.max(n, 0);
      return n > 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read '" + file + "'", e);
    }
  }

  /** The number of the line {@link #next} returned last (1 for the first). */
  public int number() {
    return number;
  }

  private String decode(int from, int to) {
    ByteBuffer bytes = ByteBuffer.wrap(line, from, to - from);
    CharBuffer chars = CharBuffer.allocate(to - from);
    decoder.reset();
    CoderResult result = decoder.decode(bytes, chars, true);
    if (result.isError()) {
      int at = bytes.position();
      throw new ValidationException(
          field,
          String.format(
              "%s:%d: not UTF-8 text (byte 0x%02x at column %d); save the file as UTF-8",
              file, number, line[at] & 0xff, at + 1));
    }
    decoder.flush(chars);
    chars.flip();
    return chars.toString();
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      // nothing was written through it, so nothing is lost
    }
  }
}
