package dev.drover.app;

import dev.drover.Drover;
import dev.drover.app.http.ApiServer;
import dev.drover.app.http.ApiToken;
import dev.drover.app.http.ServedRunner;
import dev.drover.app.http.ServerMetrics;
import dev.drover.store.StoreLocation;
import dev.drover.testing.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The HTTP server of {@code drover serve}, started in this JVM on a free loopback port over a real
 * store, without a runner; {@link #client} calls it with {@link ApiClient#TOKEN}.
 */
final class TestServer implements AutoCloseable {
  final Drover drover;
  final ApiServer server;
  final ApiClient client;
  final StoreLocation location;
  private final ServerMetrics metrics;

  final Path runsDir;

  /** Whether {@link #runsDir} is a temporary directory this server made, to delete at close. */
  private final boolean ownsRunsDir;

  private TestServer(StoreLocation location, Path runsDir, boolean ownsRunsDir) {
    this.location = location;
    this.runsDir = runsDir;
    this.ownsRunsDir = ownsRunsDir;
    this.drover = Drover.open(location);
    this.metrics = new ServerMetrics(drover);
    ServedRunner runner = new ServedRunner(() -> {}, runsDir, RunnerSetup.HANDLER_TYPES);
    this.server =
        ApiServer.start(drover, ApiToken.of(ApiClient.TOKEN), metrics, runner, "127.0.0.1", 0);
    this.client = new ApiClient(server.port());
  }

  /** A server whose runs' directories are under {@code runsDir}, as a runner's would be. */
  static TestServer on(StoreLocation location, Path runsDir) {
    return new TestServer(location, runsDir, false);
  }

  static TestServer on(StoreLocation location) {
    try {
      return new TestServer(location, Files.createTempDirectory("drover-runs"), true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every row of the store, to show that a request changed nothing. */
  List<String> snapshot() {
    return location.isSqlite()
        ? DbSnapshot.ofDataDir(location.dataDir())
        : DbSnapshot.of(location.jdbcUrl());
  }

  @Override
  public void close() {
    server.close();
    metrics.close();
    drover.close();
    if (ownsRunsDir) {
      TempDirs.delete(runsDir);
    }
  }
}
