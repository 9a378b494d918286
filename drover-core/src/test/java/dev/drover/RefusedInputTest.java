package dev.drover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import dev.drover.store.StoreLocation;
import dev.drover.testing.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Input that used to be accepted and then failed at run time, or was silently changed: commands
 * that cannot be filled or parsed, values beyond {@link dev.drover.model.Limits}, and JSON that
 * Jackson would quietly truncate or repair. Each is refused with its field named and nothing
 * written.
 */
class RefusedInputTest {
  @TempDir Path dir;
  Drover drover;

  @BeforeEach
  void open() {
    drover =
        Drover.open(
            StoreLocation.dataDir(dir.resolve("data")), TestClock.at("2026-01-01T00:00:00Z"));
    drover.taskTypeCreate(
        TaskType.builder("sleep").command(List.of("sleep", "{kwargs.secs}")).build());
    drover.taskTypeCreate(TaskType.builder("echo").command(List.of("echo", "{args.1}")).build());
  }

  @AfterEach
  void close() {
    drover.close();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        bad("kwargs", d -> d.taskCreate(List.of(NewTask.oneshot("sleep", null)))),
        bad(
            "args",
            d ->
                d.taskCreate(
                    List.of(
                        NewTask.oneshot("sleep", TaskArguments.of(null, Map.of("secs", 1))),
                        NewTask.oneshot("echo", TaskArguments.of(List.of("only one"), null))))),
        bad(
            "command",
            d -> d.taskTypeCreate(TaskType.builder("t").command(List.of("{args.")).build())),
        bad(
            "command",
            d ->
                d.store().taskTypeUpsert(TaskType.builder("t").command(List.of("x", "}")).build())),
        bad(
            "default_interval",
            d ->
                d.taskTypeCreate(
                    TaskType.builder("t").defaultInterval(Duration.ofDays(999_999_999L)).build())),
        bad(
            "timeout",
            d -> d.taskTypeCreate(TaskType.builder("t").timeout(Duration.ofDays(36_501)).build())),
        bad(
            "backoff_factor",
            d ->
                d.taskTypeCreate(
                    TaskType.builder("t").backoffFactor(Double.POSITIVE_INFINITY).build())),
        bad(
            "backoff_factor",
            d -> d.taskTypeCreate(TaskType.builder("t").backoffFactor(101).build())),
        bad(
            "next_run",
            d ->
                d.taskCreate(
                    List.of(
                        NewTask.oneshot("sleep", TaskArguments.of(null, Map.of("secs", 1)))
                            .withNextRun(Instant.parse("+999999999-12-31T23:59:59Z"))))),
        bad("args", d -> TaskArguments.parse("[1] [2]", null)),
        bad("args", d -> TaskArguments.parse("[\"\\ud800\"]", null)),
        bad("kwargs", d -> TaskArguments.parse(null, "{\"a\": \"\\udc00x\"}")),
        bad("kwargs", d -> TaskArguments.parse(null, "{\"a\": 1, \"a\": 2}")),
        bad("kwargs", d -> TaskArguments.parse(null, "{\"o\": {\"b\": 1, \"b\": 1}}")));
  }

  static Arguments bad(String field, Consumer<Drover> call) {
    return Arguments.of(field, call);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("cases")
  void isRefusedWithTheFieldNamedAndNothingWritten(String field, Consumer<Drover> call) {
    String before = Snapshot.of(drover);
    assertThatThrownBy(() -> call.accept(drover))
        .isInstanceOf(ValidationException.class)
        .satisfies(
            e -> {
              assertThat(((ValidationException) e).field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ").doesNotContain("\n");
            });
    assertThat(Snapshot.of(drover)).isEqualTo(before);
  }

  @Test
  void theMissingPlaceholderIsNamed() {
    assertThatThrownBy(() -> drover.taskCreate(List.of(NewTask.oneshot("sleep", null))))
        .hasMessageContaining("{kwargs.secs}")
        .hasMessageContaining("'sleep'");
  }

  @Test
  void validJsonAndFilledCommandsStillPass() {
    assertThat(TaskArguments.parse("[\"\\ud83d\\ude00\"]", "{\"a\": {\"b\": 1}, \"b\": 2}"))
        .isNotNull();
    assertThat(
            drover.taskCreate(
                List.of(NewTask.oneshot("sleep", TaskArguments.of(null, Map.of("secs", 1))))))
        .hasSize(1);
  }
}
