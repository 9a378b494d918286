package dev.drover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.model.DurationText;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.model.WorkerGroup;
import dev.drover.schedule.PriorityShares;
import dev.drover.store.StoreLocation;
import dev.drover.testing.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * Every invalid input through the Java API gets a one-line {@link ValidationException} naming its
 * field, and leaves the store exactly as it was.
 */
class BadInputTest {
  static final Duration HOUR = Duration.ofHours(1);
  @TempDir Path dir;
  Drover drover;

  @BeforeEach
  void open() {
    drover =
        Drover.open(
            StoreLocation.dataDir(dir.resolve("data")), TestClock.at("2026-01-01T00:00:00Z"));
    drover.taskTypeCreate(TaskType.builder("load-git").intervals(HOUR, HOUR, HOUR).build());
    drover.taskTypeCreate(TaskType.builder("checksum").build());
    drover.taskTypeCreate(TaskType.builder("build").perKeyLimit("owner", 2).build());
    drover.taskCreate(List.of(NewTask.recurring("load-git", TaskArguments.of(List.of("a"), null))));
  }

  @AfterEach
  void close() {
    drover.close();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        bad(
            "type",
            d -> d.taskCreate(List.of(NewTask.oneshot("no-such-type", TaskArguments.empty())))),
        bad("type", d -> d.taskCreate(List.of(NewTask.oneshot(" ", null)))),
        bad(
            "type",
            d ->
                d.taskCreate(
                    List.of(
                        NewTask.recurring("load-git", TaskArguments.of(List.of("b"), null)),
                        NewTask.oneshot("nope", null)))),
        bad("policy", d -> d.taskCreate(List.of(NewTask.recurring("checksum", null)))),
        bad(
            "min_interval",
            d ->
                d.taskTypeCreate(
                    TaskType.builder("t")
                        .minInterval(Duration.ofDays(2))
                        .maxInterval(Duration.ofDays(1))
                        .build())),
        bad(
            "default_interval",
            d ->
                d.taskTypeCreate(
                    TaskType.builder("t")
                        .intervals(Duration.ofDays(3), HOUR, Duration.ofDays(2))
                        .build())),
        bad(
            "default_interval",
            d ->
                d.taskTypeCreate(
                    TaskType.builder("t")
                        .intervals(Duration.ofMinutes(1), HOUR, Duration.ofDays(2))
                        .build())),
        bad(
            "default_interval",
            d -> d.taskTypeCreate(TaskType.builder("t").defaultInterval(Duration.ZERO).build())),
        bad(
            "backoff_factor",
            d -> d.taskTypeCreate(TaskType.builder("t").backoffFactor(0.5).build())),
        bad(
            "backoff_factor",
            d -> d.taskTypeCreate(TaskType.builder("t").backoffFactor(Double.NaN).build())),
        bad("num_retries", d -> d.taskTypeCreate(TaskType.builder("t").numRetries(-1).build())),
        bad(
            "max_queue_length",
            d -> d.taskTypeCreate(TaskType.builder("t").maxQueueLength(0).build())),
        bad("max_workers", d -> d.taskTypeCreate(TaskType.builder("t").maxWorkers(0).build())),
        bad(
            "retry_delay",
            d ->
                d.taskTypeCreate(TaskType.builder("t").retryDelay(Duration.ofSeconds(-1)).build())),
        bad("name", d -> d.taskTypeCreate(TaskType.builder("has space").build())),
        bad("command", d -> d.taskTypeCreate(TaskType.builder("t").command(List.of()).build())),
        bad(
            "max_per_key",
            d -> d.taskTypeCreate(TaskType.builder("t").concurrencyKey("owner").build())),
        bad("concurrency_key", d -> d.taskTypeCreate(TaskType.builder("t").maxPerKey(2).build())),
        bad(
            "concurrency_key",
            d -> d.taskTypeCreate(TaskType.builder("t").perKeyLimit(" ", 2).build())),
        bad(
            "max_per_key",
            d -> d.taskTypeCreate(TaskType.builder("t").perKeyLimit("owner", 0).build())),
        bad(
            "kwargs.owner",
            d ->
                d.taskCreate(
                    List.of(
                        NewTask.oneshot(
                            "build", TaskArguments.of(null, java.util.Map.of("owner", "alice"))),
                        NewTask.oneshot(
                            "build", TaskArguments.of(null, java.util.Map.of("user", "bob")))))),
        bad(
            "kwargs.owner",
            d ->
                d.taskCreate(
                    List.of(
                        NewTask.oneshot("build", TaskArguments.parse(null, "{\"owner\": null}"))))),
        bad(
            "retries_left",
            d ->
                d.taskCreate(
                    List.of(new NewTask("load-git", null, null, TaskPolicy.ONESHOT, null, -2)))),
        bad(
            "args",
            d ->
                d.taskCreate(
                    List.of(NewTask.oneshot("load-git", TaskArguments.parse("[1, 2", null))))),
        bad(
            "args",
            d ->
                d.taskCreate(
                    List.of(NewTask.oneshot("load-git", TaskArguments.parse("{\"a\": 1}", null))))),
        bad(
            "kwargs",
            d ->
                d.taskCreate(
                    List.of(NewTask.oneshot("load-git", TaskArguments.parse(null, "[1]"))))),
        bad("priority", d -> TaskPriority.parse("priority", "urgent")),
        bad(
            "status",
            d ->
                d.taskSearch(
                    new TaskQuery(
                        null,
                        null,
                        List.of(TaskStatus.parse("status", "finished")),
                        null,
                        null,
                        null,
                        null,
                        null))),
        bad("policy", d -> TaskPolicy.parse("policy", "sometimes")),
        bad("status", d -> TaskRunStatus.parse("status", "exploded")),
        bad("status", d -> d.taskRunEnd("any", TaskRunStatus.STARTED, null)),
        bad("retry_delay", d -> DurationText.parse("retry_delay", "soon")),
        bad(
            "after",
            d ->
                d.archiveEach(
                    Instant.parse("2026-02-01T00:00:00Z"),
                    Instant.parse("2026-01-01T00:00:00Z"),
                    10,
                    p -> {})),
        bad(
            "after",
            d ->
                d.taskSearch(
                    new TaskQuery(
                        null,
                        null,
                        null,
                        null,
                        null,
                        Instant.parse("2026-01-01T00:00:00Z"),
                        Instant.parse("2026-02-01T00:00:00Z"),
                        null))),
        bad("limit", d -> d.taskSearch(TaskQuery.all().withLimit(0))),
        bad("page_size", d -> d.archiveEach(Instant.EPOCH, Instant.EPOCH, 0, p -> {})),
        bad(
            "page_token",
            d -> d.store().taskRunArchivable(Instant.EPOCH, Instant.EPOCH, 10, "x:y")),
        bad(
            "priority_shares",
            d ->
                d.store()
                    .taskGrabReady("load-git", Instant.EPOCH, 1, 1, new PriorityShares(1, 1, 1))),
        bad("max_workers", d -> d.store().workerGroupUpsert(new WorkerGroup("g", -1))),
        bad("db", d -> Drover.open(StoreLocation.postgres("jdbc:mysql://localhost/x"))),
        bad("db", d -> Drover.open(StoreLocation.of(null, "postgres://localhost/x"))));
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
  void anUnusableDataDirIsRefusedWithoutCreatingAnything() throws Exception {
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    for (Path dataDir : List.of(file, file.resolve("data"))) {
      assertThatThrownBy(() -> Drover.open(StoreLocation.dataDir(dataDir)))
          .isInstanceOf(ValidationException.class)
          .hasMessageStartingWith("data-dir: ");
    }
    assertThat(Files.readString(file)).isEqualTo("x");
  }
}
