package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.model.TaskQuery;
import dev.drover.model.TaskStatus;
import dev.drover.store.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code task add --ensure-runner} through the real jar: with no runner alive it starts one in the
 * background, which runs the task and exits when idle; with one alive it starts nothing.
 */
class EnsureRunnerIT {
  @TempDir Path tmp;

  private Path data() {
    return tmp.resolve("data");
  }

  private DroverCli.Result drover(Object... args) {
    Object[] all = new Object[args.length + 2];
    all[0] = "--data-dir";
    all[1] = data();
    System.arraycopy(args, 0, all, 2, args.length);
    return DroverCli.jar(tmp).run(all).ok();
  }

  @Test
  void withNoRunnerAliveOneIsStartedThatRunsTheTaskAndExitsWhenIdle() throws Exception {
    drover("init");
    drover("task-type", "add", "--name", "t", "--command", "true");
    DroverCli.Result added = drover("task", "add", "--type", "t", "--ensure-runner");
    assertThat(added.stderr()).contains("started a background runner (pid ");
    Path log = data().resolve("runs").resolve("runner.log");
    assertThat(added.stderr()).contains(log.toString());

    try (Drover drover = Drover.open(StoreLocation.dataDir(data()))) {
      waitFor(
          () ->
              drover.taskSearch(TaskQuery.all()).stream()
                      .allMatch(t -> t.status() == TaskStatus.COMPLETED)
                  && drover.store().runners().list().isEmpty());
    }
    assertThat(java.nio.file.Files.readString(log)).contains("runner", "stopped");
  }

  @Test
  void withARunnerAliveNothingIsStarted() throws Exception {
    drover("init");
    drover("task-type", "add", "--name", "t", "--command", "true");
    DroverCli.Started daemon =
        DroverCli.jar(tmp).start("--data-dir", data(), "run", "--daemon", "--workers", "1");
    try (Drover drover = Drover.open(StoreLocation.dataDir(data()))) {
      waitFor(() -> !drover.store().runners().list().isEmpty());
      String name = drover.store().runners().list().get(0).name();
      DroverCli.Result added = drover("task", "add", "--type", "t", "--ensure-runner");
      assertThat(added.stderr()).contains("runner " + name + " is alive").doesNotContain("started");
      waitFor(
          () ->
              drover.taskSearch(TaskQuery.all()).stream()
                  .allMatch(t -> t.status() == TaskStatus.COMPLETED));
      assertThat(drover.store().runners().list()).hasSize(1);
    } finally {
      daemon.process().destroy();
    }
    assertThat(daemon.finish(60).exitCode()).isZero();
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).as("waited 60 s").isBefore(deadline);
      Thread.sleep(100);
    }
  }
}
