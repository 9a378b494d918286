package dev.drover.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Drover;
import dev.drover.model.DurationText;
import dev.drover.model.Task;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskType;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The end of {@code drover demo}: what each of its tasks did, how the intervals adapted, the
 * checksums and the counts.
 */
final class DemoReport {
  private final Drover drover;
  private final Instant now;

  DemoReport(Drover drover, Instant now) {
    this.drover = drover;
    this.now = now;
  }

  /**
   * Prints the report; {@code cli} is how to call drover on this store in the hints at the end
   * (with --data-dir when it is not the default).
   */
  void print(
      PrintWriter out,
      Map<Long, Task> before,
      List<Long> mirrorIds,
      List<Long> checksumIds,
      Path runsDir,
      String cli) {
    Optional<TaskType> type = drover.taskType(DemoCommand.MIRROR_TYPE);
    out.println(
        "what happened to the mirrors"
            + type.map(
                    t ->
                        " (an eventful run divides the interval by "
                            + factor(t.backoffFactor())
                            + ", an uneventful one multiplies it by "
                            + factor(t.backoffFactor())
                            + ", within "
                            + DurationText.format(t.minInterval())
                            + ".."
                            + DurationText.format(t.maxInterval())
                            + ")")
                .orElse("")
            + ":");
    Table mirrors = new Table("ID", "MIRROR", "LAST RUN", "REFS", "INTERVAL", "NEXT RUN", "WHY");
    for (Task task : drover.store().taskGet(mirrorIds)) {
      Optional<TaskRun> run = lastRun(task);
      Duration was = before.containsKey(task.id()) ? before.get(task.id()).currentInterval() : null;
      mirrors.row(
          task.id(),
          Path.of(task.arguments().kwargs().path("path").asText()).getFileName(),
          run.map(r -> Tables.name(r.status())).orElse("none"),
          result(run, "refs"),
          DurationText.format(was) + " -> " + DurationText.format(task.currentInterval()),
          Tables.time(task.nextRun()) + " (" + in(task.nextRun()) + ")",
          why(run, was, task.currentInterval()));
    }
    mirrors.print(out);
    out.println();

    out.println("checksums of the mirrors, after the fetches:");
    Table sums = new Table("ID", "PATH", "LAST RUN", "FILES", "SHA-256");
    for (Task task : drover.store().taskGet(checksumIds)) {
      Optional<TaskRun> run = lastRun(task);
      String sha = result(run, "sha256");
      sums.row(
          task.id(),
          task.arguments().args().path(0).asText(),
          run.map(r -> Tables.name(r.status())).orElse("none"),
          result(run, "files"),
          sha != null ? sha : result(run, "error"));
    }
    sums.print(out);
    out.println();

    out.println("tasks by type and status:");
    StatusCommand.print(out, drover);
    out.println();
    out.println(
        "each command run's stdout.log and stderr.log are in "
            + runsDir.resolve(DemoCommand.MIRROR_TYPE)
            + "/RUN-ID/");
    out.println(
        "run the demo again: one more commit to "
            + DemoCommand.CHANGED
            + ", so its interval shrinks"
            + type.map(t -> " (down to " + DurationText.format(t.minInterval()) + ")").orElse("")
            + " while the others grow"
            + type.map(t -> " (up to " + DurationText.format(t.maxInterval()) + ")").orElse(""));
    out.println(
        "more: '"
            + cli
            + " task-run list', '"
            + cli
            + " task show ID', '"
            + cli
            + " run', '"
            + cli
            + " status', 'drover --help'");
  }

  private Optional<TaskRun> lastRun(Task task) {
    return drover.taskRuns(List.of(task.id()), null, 1).stream().findFirst();
  }

  /** A field of the run's result, or null. */
  private static String result(Optional<TaskRun> run, String field) {
    JsonNode value =
        run.map(r -> r.metadata() == null ? null : r.metadata().path("result").get(field))
            .orElse(null);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static String why(Optional<TaskRun> run, Duration was, Duration now) {
    if (run.isEmpty() || was == null || now == null) {
      return null;
    }
    return switch (run.get().status()) {
      case EVENTFUL ->
          now.compareTo(was) < 0
              ? "new commits fetched: visited more often"
              : "new commits; at min_interval";
      case UNEVENTFUL ->
          now.compareTo(was) > 0
              ? "nothing new: visited less often"
              : "nothing new; at max_interval";
      default ->
          Optional.ofNullable(result(run, "error")).orElse("did not succeed") + "; retried later";
    };
  }

  private static String factor(double f) {
    return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
  }

  /** How long until {@code t}, to the minute once it is a minute or more away. */
  private String in(Instant t) {
    Duration d = Duration.between(now, t);
    if (d.isNegative() || d.isZero()) {
      return "due now";
    }
    long seconds = Math.round(d.toMillis() / 1000.0);
    Duration rounded =
        seconds >= 60
            ? Duration.ofMinutes(Math.round(seconds / 60.0))
            : Duration.ofSeconds(seconds);
    return "in " + DurationText.format(rounded);
  }
}
