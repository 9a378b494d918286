package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The live line and the log share one terminal: here both write to one buffer, in order. */
class LiveLineTest {
  private static final String ERASE = "\r\u001b[K";

  private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(terminal, true, StandardCharsets.UTF_8);
  private final PrintWriter out = new PrintWriter(err, true);
  private final LiveLine live = new LiveLine(out, err);

  private String screen() {
    return terminal.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aLogLineErasesTheLiveLineAndTheLiveLineIsDrawnAgainBelowIt() {
    live.show("fetch: 3 due");
    PrintStream log = live.logStream();
    log.print("INFO runner started");
    assertThat(screen())
        .as("nothing of a log line is shown before it ends")
        .isEqualTo(ERASE + "fetch: 3 due");
    log.println(" (8 workers)");

    assertThat(screen())
        .isEqualTo(
            ERASE + "fetch: 3 due" + ERASE + "INFO runner started (8 workers)\n" + "fetch: 3 due");
  }

  @Test
  void endingTheLiveLineLetsLaterLogLinesPassUntouched() {
    live.show("fetch: 1 due");
    live.end();
    live.logStream().println("INFO runner stopped");

    assertThat(screen()).isEqualTo(ERASE + "fetch: 1 due\nINFO runner stopped\n");
  }

  @Test
  void withoutALiveLineLogLinesAreWrittenAsTheyAre() {
    PrintStream log = live.logStream();
    log.println("one");
    log.print("two, unfinished");
    log.close();

    assertThat(screen()).isEqualTo("one\ntwo, unfinished");
  }
}
