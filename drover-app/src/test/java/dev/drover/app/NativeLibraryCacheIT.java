package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Drover;
import dev.drover.store.StoreLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real CLI processes load sqlite-jdbc's native library from the per-user cache: concurrent ones
 * print no "Failed to delete old native lib" trace, and neither they nor one killed with SIGKILL
 * leave a copy of the library in the temporary directory (issue 14 item 25). Each process gets this
 * test's own temporary directory ({@code java.io.tmpdir}) and cache ({@code XDG_CACHE_HOME}).
 */
class NativeLibraryCacheIT {
  private static final int CONCURRENT = 6;

  @TempDir Path work;
  private Path tmp;
  private Path cache;

  @BeforeEach
  void dirs() throws IOException {
    tmp = Files.createDirectories(work.resolve("tmp"));
    cache = work.resolve("cache");
  }

  private DroverCli cli(Path cacheHome) {
    return DroverCli.jar(work)
        .jvmOption("-Djava.io.tmpdir=" + tmp)
        .env("XDG_CACHE_HOME", cacheHome.toString());
  }

  @Test
  void concurrentCommandsShareOneExtractedLibraryAndLeaveNothingInTmp() throws Exception {
    cli(cache).run("init").ok();
    List<DroverCli.Started> started = new ArrayList<>();
    for (int i = 0; i < CONCURRENT; i++) {
      Object[] command = i % 2 == 0 ? new Object[] {"status"} : new Object[] {"task", "list"};
      started.add(cli(cache).start(command));
    }
    for (DroverCli.Started s : started) {
      DroverCli.Result r = s.finish(120);
      assertThat(r.exitCode()).as(r.toString()).isZero();
      assertThat(r.stderr()).doesNotContain("Failed to delete").doesNotContain("Exception");
    }
    assertThat(sqliteFilesIn(tmp)).isEmpty();
    try (Stream<Path> files = Files.walk(cache)) {
      assertThat(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("libsqlitejdbc.so", "libsqlitejdbc.so.size");
    }
  }

  @Test
  void aKilledProcessLeavesNoLibraryBehind() throws Exception {
    cli(cache).run("init").ok();
    DroverCli.Started daemon = cli(cache).start("run", "--daemon");
    try (Drover api = Drover.open(StoreLocation.dataDir(work.resolve("drover-data")))) {
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      while (api.store().runners().list().isEmpty()) {
        assertThat(Instant.now()).as(daemon.stderrSoFar()).isBefore(deadline);
        Thread.sleep(100);
      }
      daemon.process().destroyForcibly(); // SIGKILL: no exit hooks run
      daemon.process().waitFor();
    } finally {
      daemon.process().destroyForcibly();
    }
    assertThat(sqliteFilesIn(tmp)).isEmpty();
  }

  @Test
  void anUnwritableCacheFallsBackToTheDriversWaySilently() throws Exception {
    Path notADirectory = Files.writeString(work.resolve("cache-file"), "x");
    DroverCli.Result r = cli(notADirectory).run("init").ok();
    assertThat(r.stderr()).doesNotContain("Exception");
    assertThat(cli(notADirectory).run("status").ok().stderr()).isEmpty();
    // The driver extracted its copy to the temporary directory and deleted it at exit.
    assertThat(sqliteFilesIn(tmp)).isEmpty();
  }

  private static List<String> sqliteFilesIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(name -> name.startsWith("sqlite-"))
          .toList();
    }
  }
}
