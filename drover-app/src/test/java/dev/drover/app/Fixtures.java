package dev.drover.app;

import dev.drover.Drover;
import dev.drover.model.NewTask;
import dev.drover.model.Task;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskPriority;
import dev.drover.model.TaskRun;
import dev.drover.model.TaskRunStatus;
import dev.drover.store.StoreLocation;
import dev.drover.testing.SqliteTemplate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Files and stores the end-to-end tests start from. */
final class Fixtures {
  /** A configuration with a worker group, a recurring command type and a oneshot command type. */
  static final String CONFIG =
      """
      limits:
        total_workers: 4
      worker_groups:
        vcs:
          max_workers: 2
      task_types:
        load-git:
          description: Fetch a git mirror
          default_interval: 1h
          min_interval: 10m
          max_interval: 1d
          backoff_factor: 2
          num_retries: 3
          retry_delay: 5m
          group: vcs
          command: [git, -C, "{kwargs.path}", fetch, --all]
        check:
          description: Verify a mirror
          num_retries: 1
          command: [test, -d, "{args.0}"]
      """;

  private Fixtures() {}

  static Path write(Path file, String text) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      return Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A store with the {@link #CONFIG} types, some waiting tasks (one with priority, one oneshot in
   * the future), and one oneshot task whose run ended eventful (so it is completed), all written
   * through the Java API. A new SQLite store starts as a copy of one migrated once per JVM.
   */
  static void seed(StoreLocation location, Path scratch) {
    if (location.isSqlite()
        && !Files.exists(location.dataDir().resolve(StoreLocation.DATABASE_FILE))) {
      SqliteTemplate.copyInto(location.dataDir());
    }
    try (Drover drover = Drover.open(location)) {
      drover.applyConfig(write(scratch.resolve("seed.yaml"), CONFIG));
      drover.taskCreate(
          List.of(
              NewTask.recurring("load-git", TaskArguments.of(null, Map.of("path", "/srv/a.git")))
                  .withPriority(TaskPriority.HIGH),
              NewTask.recurring("load-git", TaskArguments.of(null, Map.of("path", "/srv/b.git"))),
              NewTask.oneshot("check", TaskArguments.of(List.of("/srv/a.git"), null))
                  .withNextRun(java.time.Instant.parse("2100-01-01T00:00:00Z")),
              NewTask.oneshot("check", TaskArguments.of(List.of("/srv/b.git"), null))));
      runToEnd(drover, "check", TaskRunStatus.EVENTFUL);
    }
  }

  /**
   * Grabs every ready task of {@code type}, and starts and ends a run of each with {@code status}.
   */
  static List<TaskRun> runToEnd(Drover drover, String type, TaskRunStatus status) {
    List<Task> grabbed = drover.taskGrabReady(type, 100, 100);
    List<TaskRun> runs = drover.taskRunSchedule(grabbed.stream().map(Task::id).toList());
    return runs.stream()
        .map(
            run -> {
              drover.taskRunStart(run.backendId(), null);
              return drover.taskRunEnd(run.backendId(), status, null).orElseThrow();
            })
        .toList();
  }
}
