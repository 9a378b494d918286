package dev.drover.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputTailTest {
  @TempDir Path dir;

  Path file(String content) throws IOException {
    return Files.writeString(dir.resolve("out.log"), content, StandardCharsets.UTF_8);
  }

  @Test
  void skipsTrailingBlankLinesAndCarriageReturns() throws IOException {
    assertThat(OutputTail.lastLine(file("first\r\n  last  \r\n\n \n"), 1024)).contains("last");
  }

  @Test
  void aLastLineWithoutNewlineCounts() throws IOException {
    assertThat(OutputTail.lastLine(file("a\nb"), 1024)).contains("b");
  }

  @Test
  void emptyOrMissingFilesHaveNoLine() throws IOException {
    assertThat(OutputTail.lastLine(file("\n\n"), 1024)).isEmpty();
    assertThat(OutputTail.lastLine(dir.resolve("missing.log"), 1024)).isEmpty();
  }

  @Test
  void readsOnlyTheWindowAndMarksACutLine() throws IOException {
    Path f = file("x".repeat(100) + "\n" + "y".repeat(50));
    assertThat(OutputTail.lastLine(f, 20)).contains(OutputTail.CUT + "y".repeat(20));
  }

  @Test
  void aLineThatExactlyFillsTheWindowIsWhole() throws IOException {
    Path f = file("x".repeat(100) + "\n" + "y".repeat(20));
    assertThat(OutputTail.lastLine(f, 20)).contains("y".repeat(20));
  }

  @Test
  void findsTheLastLineOfALargeFile() throws IOException {
    Path f = dir.resolve("big.log");
    Files.write(f, ("z".repeat(1023) + "\n").repeat(8 * 1024).getBytes(StandardCharsets.UTF_8));
    Files.writeString(f, "{\"status\": \"eventful\"}\n", java.nio.file.StandardOpenOption.APPEND);
    assertThat(OutputTail.lastLine(f, 64 * 1024)).contains("{\"status\": \"eventful\"}");
  }
}
