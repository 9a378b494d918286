package dev.drover;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the text files users hand to Drover (task, origin and result files, configuration) with
 * errors that name the real cause: a missing file, a directory, a file that may not be read, or
 * bytes that are not UTF-8 (with the line they are on), instead of "no such file" for all of the
 * first three and the JDK's "Input length = 1" for the last.
 */
public final class TextFiles {
  private TextFiles() {}

  /** Refuses, naming {@code field}, a path that is not a readable regular file. */
  public static void checkReadable(String field, Path file) {
    if (Files.isDirectory(file)) {
      throw new ValidationException(field, "'" + file + "' is a directory, not a file");
    }
    if (!Files.exists(file)) {
      throw new ValidationException(field, "no such file '" + file + "'");
    }
    if (!Files.isRegularFile(file)) {
      throw new ValidationException(field, "'" + file + "' is not a regular file");
    }
    if (!Files.isReadable(file)) {
      throw new ValidationException(field, "permission denied: cannot read '" + file + "'");
    }
  }

  /** The whole file as UTF-8 text, refused whole if any byte sequence is not UTF-8. */
  public static String read(String field, Path file) {
    checkReadable(field, file);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (AccessDeniedException e) {
      throw new ValidationException(field, "permission denied: cannot read '" + file + "'");
    } catch (IOException e) {
      throw new ValidationException(field, "cannot read '" + file + "': " + e.getMessage());
    }
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate((int) (bytes.length * (double) decoder.maxCharsPerByte()));
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      int at = in.position();
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < at; i++) {
        if (bytes[i] == '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      throw new ValidationException(
          field,
          String.format(
              "%s:%d: not UTF-8 text (byte 0x%02x at column %d); save the file as UTF-8",
              file, line, bytes[at] & 0xff, at - lineStart + 1));
    }
    decoder.flush(out);
    out.flip();
    return out.toString();
  }

  /** The file's lines as UTF-8 text (see {@link #read}). */
  public static List<String> lines(String field, Path file) {
    return read(field, file).lines().toList();
  }
}
