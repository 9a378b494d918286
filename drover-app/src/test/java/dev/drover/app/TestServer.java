package dev.drover.app;

import dev.drover.Drover;
import dev.drover.app.http.ApiServer;
import dev.drover.app.http.ApiToken;
import dev.drover.app.http.ServerMetrics;
import dev.drover.store.StoreLocation;
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

  private TestServer(StoreLocation location, Path runsDir) {
    this.location = location;
    this.drover = Drover.open(location);
    this.metrics = new ServerMetrics(drover);
    this.server =
        ApiServer.start(
            drover, ApiToken.of(ApiClient.TOKEN), metrics, () -> {}, "127.0.0.1", 0, runsDir);
    this.client = new ApiClient(server.port());
  }

  static TestServer on(StoreLocation location) {
    return new TestServer(location, null);
  }

  /** A server whose dashboard reads the runs' output under {@code runsDir}. */
  static TestServer on(StoreLocation location, Path runsDir) {
    return new TestServer(location, runsDir);
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
  }
}
