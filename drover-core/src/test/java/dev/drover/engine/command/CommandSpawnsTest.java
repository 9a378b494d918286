package dev.drover.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Outcome;
import dev.drover.model.NewTask;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPolicy;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command spawns children with JSON lines on stdout, before its outcome line. */
class CommandSpawnsTest {
  @TempDir Path tmp;

  /** Runs {@code script} as the command of a task type, as {@link CommandExecutorTest} does. */
  Outcome sh(String script) throws IOException, InterruptedException {
    Path file = Files.writeString(Files.createTempFile(tmp, "script", ".sh"), script + "\n");
    TaskType type =
        TaskType.builder("cmd")
            .command(List.of("sh", file.toString()))
            .timeout(CommandExecutorTest.SAFETY_TIMEOUT)
            .build();
    return new CommandExecutor()
        .execute(type, TaskArguments.empty(), tmp.resolve("runs/1"), Map.of());
  }

  @Test
  void spawnLinesBecomeTheOutcomesChildren() throws Exception {
    Outcome o =
        sh(
            """
            echo 'working'
            echo '{"spawn": {"type": "snapshot", "args": ["a.html"], "kwargs": {"depth": 1}}}'
            echo '{"spawn": {"type": "snapshot", "args": ["b.html"], "policy": "recurring"}}'
            echo '{"status": "uneventful"}'
            """);
    assertThat(o.status()).isEqualTo(TaskRunStatus.UNEVENTFUL);
    assertThat(o.children()).extracting(NewTask::type).containsExactly("snapshot", "snapshot");
    assertThat(o.children().get(0).arguments().args().get(0).asText()).isEqualTo("a.html");
    assertThat(o.children().get(0).arguments().kwargs().get("depth").asInt()).isEqualTo(1);
    assertThat(o.children())
        .extracting(NewTask::policy)
        .containsExactly(TaskPolicy.ONESHOT, TaskPolicy.RECURRING);
  }

  @Test
  void aBadSpawnLineFailsTheRunNamingTheLineAndFieldAndSpawnsNothing() throws Exception {
    Outcome o =
        sh(
            """
            echo '{"spawn": {"type": "snapshot"}}'
            echo '{"spawn": {"type": "snapshot", "args": {"x": 1}}}'
            """);
    assertThat(o.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(o.children()).isEmpty();
    assertThat(o.result().get("error").asText())
        .isEqualTo("spawn line 2: args: must be a JSON array");
  }

  @Test
  void aFailedCommandSpawnsNothing() throws Exception {
    Outcome o = sh("echo '{\"spawn\": {\"type\": \"snapshot\"}}'\nexit 3");
    assertThat(o.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(o.children()).isEmpty();
  }
}
