package dev.drover.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Outcome;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskRunStatus;
import dev.drover.model.TaskType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Runs real processes through {@code /bin/sh}; what they do is in the scripts each test writes. */
class CommandExecutorTest {
  /** A safety net so a broken test fails instead of hanging; no test comes near it. */
  static final Duration SAFETY_TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path tmp;
  final CommandExecutor executor = new CommandExecutor();

  Path runDir() {
    return tmp.resolve("runs/1");
  }

  static TaskType type(String... argv) {
    return TaskType.builder("cmd").command(List.of(argv)).timeout(SAFETY_TIMEOUT).build();
  }

  Outcome run(TaskType type, TaskArguments arguments) throws InterruptedException {
    return executor.execute(type, arguments, runDir(), Map.of());
  }

  /**
   * Runs {@code script} from a file with no arguments. A file, not {@code sh -c}, because braces in
   * the command itself would be placeholders.
   */
  Outcome sh(String script) throws IOException, InterruptedException {
    return run(type("sh", script(script).toString()), TaskArguments.empty());
  }

  Path script(String body) throws IOException {
    return Files.writeString(Files.createTempFile(tmp, "script", ".sh"), body + "\n");
  }

  String stdout() throws IOException {
    return Files.readString(runDir().resolve(CommandExecutor.STDOUT_FILE));
  }

  String stderr() throws IOException {
    return Files.readString(runDir().resolve(CommandExecutor.STDERR_FILE));
  }

  /**
   * A command that prints far more than the cap keeps the tail of its output, under a line saying
   * what was dropped, and its outcome line (the last) is still read.
   */
  @Test
  void outputBeyondTheCapKeepsItsTailAndTheOutcomeLine() throws Exception {
    CommandExecutor capped = new CommandExecutor(Duration.ofSeconds(2), 64 * 1024);
    Path script =
        script(
            "i=0; while [ $i -lt 20000 ]; do echo \"line $i of chatter\"; i=$((i+1)); done\n"
                + "echo '{\"status\": \"uneventful\"}'");
    Outcome outcome =
        capped.execute(type("sh", script.toString()), TaskArguments.empty(), runDir(), Map.of());

    assertThat(outcome.status()).isEqualTo(TaskRunStatus.UNEVENTFUL);
    String kept = stdout();
    assertThat(kept).startsWith("[drover: the first ").contains("bytes of output were dropped");
    assertThat(kept.length()).isLessThan(64 * 1024 + 2 * 64 * 1024 + 200);
    assertThat(kept).contains("line 19999 of chatter\n").endsWith("{\"status\": \"uneventful\"}\n");
    assertThat(kept).doesNotContain("line 0 of chatter\n");
  }

  @Test
  void argumentsWithShellMetacharactersArriveLiterally() throws Exception {
    List<String> nasty =
        List.of(
            "; rm -rf / #",
            "$(touch pwned)",
            "`touch pwned`",
            "'single' \"double\"",
            "two words",
            "line one\nline two",
            "*",
            "$HOME",
            "a|b&c>d<e",
            "",
            " ");
    Path argsDir = Files.createDirectory(tmp.resolve("args"));
    String script =
        "n=0; for a in \"$@\"; do n=$((n+1)); printf '%s' \"$a\" > \"arg$n\"; done;"
            + " printf '%s\\n' \"$@\"";
    List<String> argv = new ArrayList<>(List.of("sh", "-c", script, "sh"));
    for (int i = 0; i < nasty.size(); i++) {
      argv.add("{args." + i + "}");
    }
    TaskType type =
        TaskType.builder("cmd")
            .command(argv)
            .workingDir(argsDir.toString())
            .timeout(SAFETY_TIMEOUT)
            .build();

    Outcome outcome = run(type, TaskArguments.of(nasty, null));

    assertThat(outcome.status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(stdout()).isEqualTo(String.join("\n", nasty) + "\n");
    for (int i = 0; i < nasty.size(); i++) {
      assertThat(argsDir.resolve("arg" + (i + 1)))
          .content(StandardCharsets.UTF_8)
          .isEqualTo(nasty.get(i));
    }
    try (var files = Files.list(argsDir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("one file per argument, nothing else ran")
          .hasSize(nasty.size())
          .doesNotContain("pwned");
    }
  }

  @Test
  void exitCodeZeroWithoutJsonIsEventful() throws Exception {
    Outcome outcome = sh("echo working; echo done");
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(outcome.result().toString()).isEqualTo("{\"exit_code\":0}");
  }

  @Test
  void aNonZeroExitFailsWithTheLastStderrLine() throws Exception {
    Outcome outcome = sh("echo first >&2; echo 'fatal: no such repo' >&2; echo >&2; exit 3");
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText())
        .isEqualTo("exit code 3: fatal: no such repo");
    assertThat(outcome.result().get("exit_code").asInt()).isEqualTo(3);
  }

  @Test
  void aNonZeroExitWithoutStderrSaysOnlyTheCode() throws Exception {
    Outcome outcome = sh("exit 1");
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText()).isEqualTo("exit code 1");
  }

  @ParameterizedTest
  @CsvSource({
    "eventful, EVENTFUL",
    "uneventful, UNEVENTFUL",
    "failed, FAILED",
    "not_found, PERMFAILED"
  })
  void theLastStdoutLineOfJsonDecidesTheStatus(String reported, TaskRunStatus expected)
      throws Exception {
    Outcome outcome =
        sh(
            "echo 'log line'; echo '{\"status\": \""
                + reported
                + "\", \"commits\": 3, \"refs\": [\"main\"]}'; echo");
    assertThat(outcome.status()).isEqualTo(expected);
    ObjectNode r = outcome.result();
    assertThat(r.has("status")).isFalse();
    assertThat(r.get("commits").asInt()).isEqualTo(3);
    assertThat(r.get("refs").toString()).isEqualTo("[\"main\"]");
    assertThat(r.get("exit_code").asInt()).isZero();
    if (reported.equals("not_found")) {
      assertThat(r.get("not_found").asBoolean()).isTrue();
    }
    if (reported.equals("failed")) {
      assertThat(r.get("error").asText()).isEqualTo("the command reported failure");
    }
  }

  @Test
  void aReportedFailureKeepsTheCommandsError() throws Exception {
    Outcome outcome = sh("echo '{\"status\": \"failed\", \"error\": \"remote hung up\"}'; exit 4");
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText()).isEqualTo("remote hung up");
    assertThat(outcome.result().get("exit_code").asInt()).isEqualTo(4);
  }

  @Test
  void aNonZeroExitOverridesAReportedSuccess() throws Exception {
    Outcome outcome =
        sh("echo oops >&2; echo '{\"status\": \"eventful\", \"commits\": 1}'; exit 2");
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText()).isEqualTo("exit code 2: oops");
    assertThat(outcome.result().get("commits").asInt()).isEqualTo(1);
  }

  @Test
  void anUnknownStatusFailsNamingIt() throws Exception {
    Outcome outcome = sh("echo '{\"status\": \"done\"}'");
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText()).contains("\"done\"");
  }

  @Test
  void jsonThatIsNotTheLastLineOrNotAnOutcomeIsIgnored() throws Exception {
    assertThat(sh("echo '{\"status\": \"failed\"}'; echo bye").status())
        .isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(sh("echo '{\"status\": \"failed\"}}'").status()).isEqualTo(TaskRunStatus.EVENTFUL);
    assertThat(sh("echo '{\"commits\": 1}'").result().has("commits")).isFalse();
  }

  @Test
  void stdoutAndStderrAreKeptInTheRunDirectory() throws Exception {
    sh("echo out1; echo err1 >&2; echo out2; echo err2 >&2");
    assertThat(stdout()).isEqualTo("out1\nout2\n");
    assertThat(stderr()).isEqualTo("err1\nerr2\n");
  }

  @Test
  void aChattyProcessDoesNotBlockAndItsLastLineIsStillRead() throws Exception {
    Outcome outcome =
        sh(
            "head -c 3000000 /dev/zero | tr '\\0' x; echo;"
                + " head -c 1000000 /dev/zero | tr '\\0' y >&2; echo '{\"status\": \"uneventful\"}'");
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.UNEVENTFUL);
    assertThat(Files.size(runDir().resolve(CommandExecutor.STDOUT_FILE))).isGreaterThan(3_000_000);
  }

  @Test
  void stdinIsClosed() throws Exception {
    assertThat(run(type("cat"), TaskArguments.empty()).status()).isEqualTo(TaskRunStatus.EVENTFUL);
  }

  @Test
  void appliesTheWorkingDirectory() throws Exception {
    Path wd = Files.createDirectory(tmp.resolve("wd"));
    TaskType type =
        TaskType.builder("cmd")
            .command(List.of("sh", "-c", "pwd -P"))
            .workingDir(wd.toString())
            .build();
    run(type, TaskArguments.empty());
    assertThat(stdout().strip()).isEqualTo(wd.toRealPath().toString());
  }

  @Test
  void aMissingWorkingDirectoryFails() throws Exception {
    TaskType type =
        TaskType.builder("cmd")
            .command(List.of("true"))
            .workingDir(tmp.resolve("nowhere").toString())
            .build();
    Outcome outcome = run(type, TaskArguments.empty());
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText())
        .contains("nowhere")
        .contains("does not exist");
  }

  @Test
  void environmentIsInheritedThenTheTypesThenTheRunners() throws Exception {
    Path script =
        script(
            "printf '%s|%s|%s|%s\\n' \"$FOO\" \"$SHARED\" \"$DROVER_TASK_ID\""
                + " \"${PATH:+inherited}\"");
    TaskType type =
        TaskType.builder("cmd")
            .command(List.of("sh", script.toString()))
            .env(Map.of("FOO", "from-type", "SHARED", "from-type"))
            .build();
    executor.execute(
        type,
        TaskArguments.empty(),
        runDir(),
        Map.of("SHARED", "from-runner", "DROVER_TASK_ID", "42"));
    assertThat(stdout()).isEqualTo("from-type|from-runner|42|inherited\n");
  }

  @Test
  void anEnvironmentNameTheOsCannotTakeFailsWithoutThrowing() throws Exception {
    TaskType type =
        TaskType.builder("cmd").command(List.of("true")).env(Map.of("A=B", "x")).build();
    Outcome outcome = run(type, TaskArguments.empty());
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText()).startsWith("bad environment variable");
  }

  @Test
  void aProgramThatDoesNotExistFailsWithoutThrowing() throws Exception {
    Outcome outcome = run(type("nosuchprog-drover-test", "x"), TaskArguments.empty());
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText())
        .isEqualTo("cannot start 'nosuchprog-drover-test': No such file or directory");
  }

  @Test
  void aFileThatIsNotExecutableFailsWithoutThrowing() throws Exception {
    Path script = Files.writeString(tmp.resolve("plain.sh"), "echo hi\n");
    Outcome outcome = run(type(script.toString()), TaskArguments.empty());
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText())
        .isEqualTo("cannot start '" + script + "': Permission denied");
  }

  @Test
  void aMissingPlaceholderValueFailsBeforeAnythingStarts() throws Exception {
    Outcome outcome = run(type("echo", "{kwargs.path}"), TaskArguments.empty());
    assertThat(outcome.status()).isEqualTo(TaskRunStatus.FAILED);
    assertThat(outcome.result().get("error").asText()).contains("{kwargs.path}");
    assertThat(runDir()).doesNotExist();
  }
}
