package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** When {@code task add --file} reports progress, driven by a hand-set clock. */
class AddProgressTest {
  private long nanos;
  private final StringWriter text = new StringWriter();

  @Test
  void withoutATerminalALineEveryFiveSecondsAndNothingForAShortFile() {
    AddProgress progress = new AddProgress(new PrintWriter(text), false, () -> nanos);
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
    AddProgress progress = new AddProgress(new PrintWriter(text), true, () -> nanos);
    nanos = 500_000_000L;
    progress.update(1_000);
    nanos = 1_000_000_000L;
    progress.update(2_000);
    progress.close();

    assertThat(text.toString()).doesNotContain("\n").startsWith("\rdrover: 1,000 tasks");
    assertThat(text.toString()).contains("\rdrover: 2,000 tasks").endsWith("\r");
  }
}
