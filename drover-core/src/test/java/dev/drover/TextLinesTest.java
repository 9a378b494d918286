package dev.drover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading users' files a line at a time: line breaks, a byte-order mark, bytes not UTF-8. */
class TextLinesTest {
  @TempDir Path dir;

  private List<String> lines(byte[] bytes) throws IOException {
    Path file = Files.write(dir.resolve("f.txt"), bytes);
    List<String> out = new ArrayList<>();
    try (TextLines lines = TextLines.open("FILE", file)) {
      for (String line = lines.next(); line != null; line = lines.next()) {
        assertThat(lines.number()).isEqualTo(out.size() + 1);
        out.add(line);
      }
    }
    return out;
  }

  @Test
  void linesEndAtLineFeedsOrCarriageReturnLineFeedsAndTheLastNeedsNone() throws IOException {
    assertThat(lines("a\r\nb\n\nc\u00e9".getBytes(StandardCharsets.UTF_8)))
        .containsExactly("a", "b", "", "c\u00e9");
    assertThat(lines(new byte[0])).isEmpty();
    assertThat(lines("x\n".getBytes(StandardCharsets.UTF_8))).containsExactly("x");
  }

  @Test
  void aByteOrderMarkIsNotPartOfTheFirstLine() throws IOException {
    assertThat(lines("\uFEFFurl\n\uFEFFx".getBytes(StandardCharsets.UTF_8)))
        .containsExactly("url", "\uFEFFx");
  }

  @Test
  void aLineLongerThanTheReadBufferIsWhole() throws IOException {
    String longLine = "\u00e9".repeat(100_000);
    assertThat(lines((longLine + "\nend").getBytes(StandardCharsets.UTF_8)))
        .containsExactly(longLine, "end");
  }

  @Test
  void bytesThatAreNotUtf8AreRefusedWithTheirLineAndColumn() throws IOException {
    Path file =
        Files.write(
            dir.resolve("latin1.jsonl"),
            "ok\nd\u00e9j\u00e0\n".getBytes(StandardCharsets.ISO_8859_1));
    try (TextLines lines = TextLines.open("--file", file)) {
      assertThat(lines.next()).isEqualTo("ok");
      assertThatThrownBy(lines::next)
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "--file: "
                  + file
                  + ":2: not UTF-8 text (byte 0xe9 at column 2); save the file as UTF-8");
    }
  }

  @Test
  void aMissingFileIsRefusedNamingTheField() {
    assertThatThrownBy(() -> TextLines.open("--file", dir.resolve("nope.jsonl")))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("--file: no such file");
  }
}
