package dev.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** A bad option gets exit 2 and an error naming it, before anything runs or is written. */
class BenchOptionsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "--visit-for, 0s, '--visit-for: must be positive, got PT0S'",
    "--origins, 0, '--origins: must be positive, got 0'",
    "--rounds, 0, '--rounds: must be positive, got 0'",
    "--workloads, nope, '--workloads: '"
  })
  void aBadOptionIsNamedAndNothingRuns(String option, String value, String error) {
    Path out = dir.resolve("out");
    StringWriter err = new StringWriter();
    CommandLine bench = bench(err);

    int code = bench.execute(option, value, "--smoke", "--out", out.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString().lines().findFirst().orElse("")).startsWith(error);
    assertThat(Files.exists(out)).isFalse();
  }

  @Test
  void aServerSettingThatIsNotNameEqualsValueIsNamedAndNothingRuns() {
    Path out = dir.resolve("out");
    StringWriter err = new StringWriter();
    CommandLine bench = bench(err);

    System.setProperty(Databases.SERVER_SETTINGS, "work_mem=64MB,track_wal_io_timing");
    int code;
    try {
      code = bench.execute("--smoke", "--out", out.toString());
    } finally {
      System.clearProperty(Databases.SERVER_SETTINGS);
    }

    assertThat(code).isEqualTo(2);
    assertThat(err.toString().lines().findFirst().orElse(""))
        .isEqualTo("drover.bench.pgConfig: 'track_wal_io_timing' is not name=value");
    assertThat(Files.exists(out)).isFalse();
  }

  /** The bench's command line, its progress dropped and its errors to {@code err}. */
  private static CommandLine bench(StringWriter err) {
    CommandLine bench =
        Bench.commandLine(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    bench.setErr(new PrintWriter(err, true));
    return bench;
  }

  @Test
  void serverSettingsAreNameValuePairsInOrder() {
    assertThat(Databases.serverSettings(" log_min_duration_statement=0, work_mem = 64MB,"))
        .containsExactly(
            Map.entry("log_min_duration_statement", "0"), Map.entry("work_mem", "64MB"));
    assertThat(Databases.serverSettings("")).isEmpty();
  }
}
