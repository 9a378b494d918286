package dev.drover.engine.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.Outcome;
import dev.drover.model.TaskRunStatus;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Turns how a command ended into an {@link Outcome}: the exit code, plus an optional last stdout
 * line such as {@code {"status": "uneventful", "commits": 0}} whose other fields become the result.
 * Without such a line, exit code 0 is eventful and anything else failed.
 */
final class CommandOutcomes {
  /** The longest outcome line recognised; the tail read of stdout is this big. */
  static final int STDOUT_WINDOW = 64 * 1024;

  static final int STDERR_WINDOW = 4 * 1024;
  static final int MAX_ERROR_LINE = 500;

  // Jackson ignores text after the first value by default; "{...}} junk" must not count as JSON.
  private static final ObjectReader STRICT =
      Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private CommandOutcomes() {}

  static Outcome of(int exitCode, Path stdout, Path stderr) {
    ObjectNode result = reportedOutcome(stdout);
    if (result == null) {
      Outcome byExit = exitCode == 0 ? Outcome.eventful() : exitFailure(exitCode, stderr);
      return withExitCode(byExit, exitCode);
    }
    JsonNode status = result.remove("status");
    String name = status.isTextual() ? status.textValue() : status.toString();
    TaskRunStatus runStatus = TaskRunStatus.FAILED;
    switch (name) {
      case "eventful", "uneventful" -> {
        if (exitCode == 0) {
          runStatus = name.equals("eventful") ? TaskRunStatus.EVENTFUL : TaskRunStatus.UNEVENTFUL;
        } else {
          // A failure wins either way: a command that reports success but exits non-zero failed.
          result.setAll(exitFailure(exitCode, stderr).result());
        }
      }
      case "failed" -> {
        if (!result.hasNonNull("error")) {
          result.put("error", "the command reported failure");
        }
      }
      case "not_found" -> {
        Outcome notFound = Outcome.notFound(null);
        runStatus = notFound.status();
        result.setAll(notFound.result());
      }
      default ->
          result.put(
              "error",
              "the command reported an unknown status "
                  + status
                  + " (expected eventful, uneventful, failed or not_found)");
    }
    return withExitCode(new Outcome(runStatus, result), exitCode);
  }

  /** The last stdout line if it is a JSON object with a status field, else null. */
  private static ObjectNode reportedOutcome(Path stdout) {
    Optional<String> line = OutputTail.lastLine(stdout, STDOUT_WINDOW);
    if (line.isEmpty() || !line.get().startsWith("{")) {
      return null;
    }
    try {
      JsonNode node = STRICT.readTree(line.get());
      return node instanceof ObjectNode o && o.has("status") ? o : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static Outcome exitFailure(int exitCode, Path stderr) {
    String message = "exit code " + exitCode;
    Optional<String> last = OutputTail.lastLine(stderr, STDERR_WINDOW);
    if (last.isPresent()) {
      String line = last.get();
      message +=
          ": "
              + (line.length() <= MAX_ERROR_LINE
                  ? line
                  : line.substring(0, MAX_ERROR_LINE) + OutputTail.CUT);
    }
    return Outcome.failed(message);
  }

  private static Outcome withExitCode(Outcome outcome, int exitCode) {
    ObjectNode result = outcome.result().deepCopy();
    result.put("exit_code", exitCode);
    return new Outcome(outcome.status(), result);
  }
}
