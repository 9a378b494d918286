package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.engine.RunnerStats;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.Stores;
import dev.drover.store.TaskWaiting;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress line of {@code drover run}, drawn from a real SQLite store. */
class RunProgressTest {
  @TempDir Path dir;

  @Test
  void whileNothingIsDueTheLineSaysWhatTheRunnerWaitsForAndCountsDown() throws Exception {
    try (Store store = Stores.open(StoreLocation.dataDir(dir.resolve("data")))) {
      store.taskTypeCreate(TaskType.builder("flaky").build());
      Instant retry = Instant.now().plus(Duration.ofMinutes(10));
      RunProgress progress =
          new RunProgress(store, Clock.systemUTC(), new PrintWriter(new StringWriter()));
      TaskWaiting[] waiting = {TaskWaiting.NONE};
      progress.start(List.of("flaky"), new RunnerStats(), () -> waiting[0]);
      try {
        assertThat(progress.line()).doesNotContain("waiting");
        waiting[0] = new TaskWaiting(3, retry, 0, null);
        assertThat(progress.line())
            .contains("flaky: 0 due, 0 running")
            .contains("waiting: 3 tasks retry, the first at ")
            .contains("; nothing else due (next in ")
            .containsPattern("next in (59\\d|600)s\\)");
      } finally {
        progress.close();
      }
    }
  }
}
