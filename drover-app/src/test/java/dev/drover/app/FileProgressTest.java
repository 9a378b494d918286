package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** When a long file's progress is reported, driven by a hand-set clock. */
class FileProgressTest {
  private long nanos;
  private final StringWriter text = new StringWriter();

  @Test
  void withoutATerminalALineEveryFiveSecondsAndNothingForAShortFile() {
    FileProgress progress = progress(false);
    nanos = 4_900_000_000L;
    progress.update(5_000);
    assertThat(text.toString()).isEmpty();

    nanos = 5_000_000_000L;
    progress.update(20_000);
    nanos = 6_000_000_000L;
    progress.update(25_000);
    nanos = 10_000_000_000L;
    progress.update(40_000);
    progress.close();

    assertThat(text.toString().lines())
        .containsExactly(
            "drover: 20,000 tasks read and checked in 5 s (4,000/s); committing at the end",
            "drover: 40,000 tasks read and checked in 10 s (4,000/s); committing at the end");
  }

  @Test
  void onATerminalOneLineRewrittenInPlaceAndClearedAtTheEnd() {
    FileProgress progress = progress(true);
    nanos = 500_000_000L;
    progress.update(1_000);
    nanos = 1_000_000_000L;
    progress.update(2_000);
    progress.close();

    assertThat(text.toString()).doesNotContain("\n").startsWith("\rdrover: 1,000 tasks");
    assertThat(text.toString()).contains("\rdrover: 2,000 tasks").endsWith("\r");
  }

  private FileProgress progress(boolean terminal) {
    return new FileProgress(
        new PrintWriter(text),
        terminal,
        () -> nanos,
        n -> String.format(Locale.ROOT, "%,d tasks read and checked", n),
        "; committing at the end");
  }
}
