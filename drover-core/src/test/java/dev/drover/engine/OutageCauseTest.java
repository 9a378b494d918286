package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An outage is logged as one line naming the innermost cause, not a statement or a trace. */
class OutageCauseTest {
  @Test
  void theCauseIsTheInnermostMessageOnOneLine() {
    Exception jdbi =
        new IllegalStateException(
            "org.postgresql.util.PSQLException: Connection refused [statement:\"-- Takes the lease\n"
                + "UPDATE task SET ...\"]",
            new SQLException(
                "Connection to localhost:5432 refused.\nCheck that the hostname is ok"));
    assertThat(Outage.cause(new RuntimeException("outer", jdbi)))
        .isEqualTo("Connection to localhost:5432 refused.");
  }

  /**
   * A three-minute outage with a failed pass every second logs one line when it begins and one a
   * minute in between (the line when it ends is INFO, below the tests' log level), none of them
   * with a stack trace.
   */
  @Test
  void aLongOutageLogsALineAMinuteWithoutStackTraces() {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream err = System.err;
    Outage outage =
        new Outage(
            Clock.systemUTC(),
            "r1",
            "/srv/drover-data",
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            true,
            new EventLog(null, Clock.systemUTC(), "r1"));
    Instant t = Instant.parse("2026-11-24T04:00:00Z");
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      for (int second = 0; second < 180; second++) {
        outage.failed(
            new IllegalStateException("pass failed", new SQLException("Connection refused")),
            t.plusSeconds(second));
      }
      outage.succeeded(t.plusSeconds(180));
    } finally {
      System.setErr(err);
    }
    List<String> lines =
        captured.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    assertThat(lines).as(String.join("\n", lines)).hasSize(1 + 2);
    assertThat(lines).noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception"));
    assertThat(lines.get(0)).contains("lost the database: Connection refused");
  }

  @Test
  void aCauseWithoutAMessageIsNamedByItsClass() {
    assertThat(Outage.cause(new RuntimeException(new IllegalStateException())))
        .isEqualTo("IllegalStateException");
  }

  @Test
  void aVeryLongMessageIsCut() {
    assertThat(Outage.cause(new RuntimeException("x".repeat(500)))).hasSize(203).endsWith("...");
  }
}
