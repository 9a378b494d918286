package dev.drover.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CappedLogTest {
  @TempDir Path dir;

  /** {@code lines} numbered lines, "line 0\n" and on. */
  static byte[] numberedLines(int lines) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      b.append("line ").append(i).append('\n');
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  static CappedLog copied(InputStream in, Path file, long cap) throws InterruptedException {
    CappedLog log = CappedLog.start(in, file, cap);
    assertThat(log.awaitEnd(10_000)).isTrue();
    return log;
  }

  @Test
  void outputUnderTheCapIsKeptAsItIs() throws Exception {
    byte[] out = numberedLines(100);
    Path file = dir.resolve("stdout.log");
    CappedLog log = copied(new ByteArrayInputStream(out), file, 4096);

    assertThat(Files.readAllBytes(file)).isEqualTo(out);
    assertThat(log.dropped()).isZero();
    assertThat(dir.resolve("stdout.log.1")).doesNotExist();
  }

  @Test
  void outputOverTheCapKeepsItsTailUnderALineSayingWhatWasDropped() throws Exception {
    byte[] out = numberedLines(200_000); // about 2.3 MB
    Path file = dir.resolve("stdout.log");
    long cap = 256 * 1024;
    CappedLog log = copied(new ByteArrayInputStream(out), file, cap);

    byte[] kept = Files.readAllBytes(file);
    String text = new String(kept, StandardCharsets.UTF_8);
    String note = text.substring(0, text.indexOf('\n') + 1);
    assertThat(note).startsWith("[drover: the first " + log.dropped() + " bytes of output");
    byte[] body = Arrays.copyOfRange(kept, note.length(), kept.length);
    assertThat(body.length).isLessThanOrEqualTo((int) cap).isGreaterThanOrEqualTo((int) cap / 2);
    // What is kept is exactly the end of the output, and with what was dropped makes all of it.
    assertThat(body).isEqualTo(Arrays.copyOfRange(out, out.length - body.length, out.length));
    assertThat(log.dropped() + body.length).isEqualTo(out.length);
    assertThat(text).endsWith("line 199999\n");
    assertThat(dir.resolve("stdout.log.1")).doesNotExist();
  }

  /**
   * A full disk, for real: the log file is a link to /dev/full, where every write fails with
   * ENOSPC. The stream is still read to its end, and the log says what was not kept.
   */
  @Test
  void aFullDiskDropsTheOutputAndTheLogSaysSo() throws Exception {
    Path devFull = Path.of("/dev/full");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(devFull), "no /dev/full here");
    Path file = Files.createSymbolicLink(dir.resolve("stderr.log"), devFull);
    byte[] out = numberedLines(10_000);
    ByteArrayInputStream in = new ByteArrayInputStream(out);
    CappedLog log = copied(in, file, 1024 * 1024);

    assertThat(in.available()).as("read to the end").isZero();
    assertThat(Files.isSymbolicLink(file)).isFalse();
    assertThat(Files.readString(file))
        .startsWith("[drover: ")
        .contains("bytes of output were not kept: No space left on device");
    assertThat(log.dropped()).isEqualTo(out.length);
  }

  @Test
  void aBrokenStreamKeepsWhatWasWritten() throws Exception {
    InputStream breaks =
        new InputStream() {
          private int left = 10;

          @Override
          public int read() throws IOException {
            if (left-- > 0) {
              return 'x';
            }
            throw new IOException("Stream closed");
          }
        };
    Path file = dir.resolve("stdout.log");
    copied(breaks, file, 4096);
    assertThat(Files.readString(file)).isEqualTo("x".repeat(10));
  }
}
