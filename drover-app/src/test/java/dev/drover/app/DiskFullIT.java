package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.drover.Drover;
import dev.drover.model.TaskRunStatus;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory on a real, small disk (a tmpfs of a few MB, mounted by the test, so it runs as
 * root; elsewhere it is skipped) that fills up: commands say so in one line, a runner says so once
 * and carries on by itself when space returns, and nothing is half-written.
 */
class DiskFullIT {
  @TempDir Path tmp;
  private Path disk;
  private Path data;
  private Path filler;

  @BeforeEach
  void mountASmallDisk() throws Exception {
    disk = Files.createDirectory(tmp.resolve("disk"));
    assumeTrue(
        exec("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk.toString()) == 0,
        "cannot mount a tmpfs here (needs root)");
    data = disk.resolve("data");
    filler = disk.resolve("filler");
    DroverCli.in(tmp).run("--data-dir", data, "init").ok();
    DroverCli.in(tmp)
        .run("--data-dir", data, "task-type", "add", "--name", "t", "--command", "true")
        .ok();
  }

  @AfterEach
  void unmount() throws Exception {
    if (disk != null) {
      exec("umount", "-l", disk.toString());
    }
  }

  @Test
  void aCommandSaysTheDiskIsFullAndWritesNothing() throws Exception {
    fillTheDisk();
    DroverCli.Result added =
        DroverCli.in(tmp)
            .run("--data-dir", data, "task", "add", "--type", "t", "--policy", "oneshot");

    assertThat(added.exitCode()).as(added.toString()).isEqualTo(1);
    assertThat(added.stderrLines())
        .as(added.toString())
        .singleElement()
        .asString()
        .startsWith("drover: the disk holding " + data + " is full (SQLITE_")
        .contains("free some space and run the command again");

    Files.delete(filler);
    assertThat(DroverCli.in(tmp).run("--data-dir", data, "task", "list", "--all").ok().stdout())
        .contains("no tasks");
  }

  @Test
  void aRunnerSaysSoOnceAndCarriesOnWhenSpaceReturns() throws Exception {
    // Due once the disk is full: the runner must claim and finish it after space returns.
    Instant due = Instant.now().plusSeconds(10);
    DroverCli.in(tmp)
        .run(
            "--data-dir",
            data,
            "task",
            "add",
            "--type",
            "t",
            "--policy",
            "oneshot",
            "--next-run",
            due)
        .ok();
    // Started first: a process cannot even open the store on a full disk (SQLite's shared-memory
    // file cannot be made), and says so the same way.
    DroverCli.Started runner =
        DroverCli.jar(tmp).start("--data-dir", data, "run", "--daemon", "--workers", "1");
    try {
      waitFor(() -> runner.stderrSoFar().contains(" started"), runner);
      fillTheDisk();
      // Its heartbeats, at the latest, now fail.
      waitFor(() -> runner.stderrSoFar().contains("is full"), runner);
      Files.delete(filler);
      try (Drover drover = Drover.open(StoreLocation.dataDir(data))) {
        waitFor(() -> !drover.taskRuns(List.of(), TaskRunStatus.EVENTFUL, 1).isEmpty(), runner);
      }
    } finally {
      runner.process().destroy(); // SIGTERM: the runner drains and exits 0
    }
    DroverCli.Result result = runner.finish(60);
    assertThat(result.exitCode()).as(result.toString()).isZero();
    List<String> full = result.stderr().lines().filter(l -> l.contains("is full")).toList();
    assertThat(full)
        .as(result.stderr())
        .hasSizeBetween(1, 2) // said when it begins, and at most a summary after a minute
        .first()
        .asString()
        .contains("the disk holding " + data + " is full");
    assertThat(result.stderr()).doesNotContain("\tat ").contains("has the database back");
  }

  /** Writes a file until the disk refuses more. */
  private void fillTheDisk() throws IOException {
    byte[] block = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException full) {
      assertThat(full.getMessage()).contains("No space left");
    }
  }

  private static int exec(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
  }

  private static void waitFor(BooleanSupplier condition, DroverCli.Started process)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("not met within 90s; stderr so far:\n" + process.stderrSoFar());
      }
      Thread.sleep(100);
    }
  }
}
