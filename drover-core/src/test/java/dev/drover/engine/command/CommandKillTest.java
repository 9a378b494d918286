package dev.drover.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.Outcome;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A timeout or an interrupt kills the whole process tree. Each script starts a child shell that
 * starts a grandchild {@code sleep}, and writes the three pids into the temp dir.
 */
class CommandKillTest {
  static final Duration WAIT = Duration.ofSeconds(20);
  static final List<String> PIDS = List.of("root.pid", "child.pid", "grandchild.pid");

  /** The tree; {@code $1} is the directory for the pid files. */
  static final String TREE =
      """
      echo $$ > "$1/root.pid"
      sh -c 'sleep 300 & echo $! > "$1/grandchild.pid"; echo $$ > "$1/child.pid"; wait' child "$1" &
      wait
      """;

  @TempDir Path tmp;

  @AfterEach
  void killLeftovers() throws IOException {
    for (String name : PIDS) {
      Path f = tmp.resolve(name);
      if (Files.exists(f)) {
        ProcessHandle.of(pid(f)).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  TaskType tree(String prelude, Duration timeout) throws IOException {
    Path script = Files.writeString(tmp.resolve("tree.sh"), prelude + "\n" + TREE);
    return TaskType.builder("tree")
        .command(List.of("sh", script.toString(), tmp.toString()))
        .timeout(timeout)
        .build();
  }

  static long pid(Path file) throws IOException {
    return Long.parseLong(Files.readString(file).strip());
  }

  /**
   * Whether {@code pid} can still run. A zombie counts as dead: once its parent is killed it waits
   * for init to collect it, which in a container may take long, and isAlive() is true meanwhile.
   */
  static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && !zombie(pid);
  }

  static boolean zombie(long pid) {
    try {
      String stat =
          Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.ISO_8859_1);
      return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }

  /** Polls (bounded) until all pid files are written; the scripts write them at once. */
  List<Long> awaitPids() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!PIDS.stream().allMatch(n -> Files.exists(tmp.resolve(n)) && size(tmp.resolve(n)) > 0)) {
      assertThat(System.nanoTime() - deadline).as("pid files written in time").isNegative();
      Thread.sleep(5);
    }
    return PIDS.stream()
        .map(
            n -> {
              try {
                return pid(tmp.resolve(n));
              } catch (IOException e) {
                throw new AssertionError(e);
              }
            })
        .toList();
  }

  static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      return 0;
    }
  }

  @Test
  void aTimeoutKillsTheWholeTree() throws Exception {
    Outcome outcome =
        new CommandExecutor(Duration.ofSeconds(2))
            .execute(
                tree("", Duration.ofSeconds(2)), TaskArguments.empty(), tmp.resolve("run"), null);

    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText()).isEqualTo("timed out after 2s");
    assertThat(outcome.result().get("timed_out").asBoolean()).isTrue();
    assertThat(outcome.result().has("exit_code")).isTrue();
    assertThat(awaitPids()).hasSize(3).noneMatch(CommandKillTest::alive);
  }

  @Test
  void processesThatIgnoreSigtermAreKilledAfterTheGrace() throws Exception {
    // An ignored signal stays ignored in children, so the whole tree shrugs off SIGTERM.
    TaskType type = tree("trap '' TERM", Duration.ofSeconds(2));
    long start = System.nanoTime();
    Outcome outcome =
        new CommandExecutor(Duration.ofMillis(300))
            .execute(type, TaskArguments.empty(), tmp.resolve("run"), null);

    assertThat(outcome.result().get("timed_out").asBoolean()).isTrue();
    // No exit code check: once its children are killed, the root's `wait` returns and it may exit
    // 0 before its own SIGKILL lands.
    assertThat(awaitPids()).noneMatch(CommandKillTest::alive);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void anInterruptKillsTheWholeTreeAndIsRethrown() throws Exception {
    TaskType type = tree("", null);
    CompletableFuture<Outcome> result = new CompletableFuture<>();
    Thread worker =
        new Thread(
            () -> {
              try {
                result.complete(
                    new CommandExecutor(Duration.ofMillis(500))
                        .execute(type, TaskArguments.empty(), tmp.resolve("run"), Map.of()));
              } catch (Throwable t) {
                result.completeExceptionally(t);
              }
            },
            "command-worker");
    worker.start();
    List<Long> pids = awaitPids();
    assertThat(pids).allMatch(CommandKillTest::alive);

    worker.interrupt();

    assertThatThrownBy(() -> result.get(WAIT.toSeconds(), TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(InterruptedException.class);
    assertThat(pids).noneMatch(CommandKillTest::alive);
    worker.join(WAIT.toMillis());
  }

  @Test
  void anAlreadyInterruptedThreadStartsNothing() {
    Thread.currentThread().interrupt();
    assertThatThrownBy(
            () ->
                new CommandExecutor()
                    .execute(
                        TaskType.builder("t").command(List.of("true")).build(),
                            TaskArguments.empty(),
                        tmp.resolve("run"), Map.of()))
        .isInstanceOf(InterruptedException.class);
    assertThat(tmp.resolve("run")).doesNotExist();
    assertThat(Thread.interrupted()).isFalse();
  }
}
