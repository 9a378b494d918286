package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.app.http.ApiToken;
import dev.drover.testing.Wait;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code drover serve} of the real jar on a free loopback port, with a SQLite data dir of its
 * own, as a person starts it: for tests that drive it from outside (HTTP, a browser). Writes go
 * through its API with the token it wrote into the data dir. {@link #close} stops it with SIGTERM
 * and fails unless it exits 0.
 */
final class RunningServe implements AutoCloseable {
  static final Duration START = Duration.ofSeconds(60);
  static final Pattern LISTENING = Pattern.compile("listening on http://127.0.0.1:(\\d+)");

  private final DroverCli.Started process;
  private final int port;
  private final String token;
  private final ApiClient api;

  private RunningServe(DroverCli.Started process, int port, String token) {
    this.process = process;
    this.port = port;
    this.token = token;
    this.api = new ApiClient(port);
  }

  /**
   * Initializes a data dir in {@code workDir} and starts {@code drover serve} with its runner and
   * {@code flags} (e.g. {@code --grace 0s}).
   */
  static RunningServe start(Path workDir, String... flags) throws InterruptedException {
    DroverCli cli = DroverCli.jar(workDir);
    cli.run("init").ok();
    List<Object> args = new ArrayList<>(List.of("serve", "--listen", "127.0.0.1:0"));
    args.addAll(List.of(flags));
    DroverCli.Started process = cli.start(args.toArray());
    int port = awaitPort(process, LISTENING);
    String token;
    try {
      token = Files.readString(workDir.resolve("drover-data").resolve(ApiToken.FILE)).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new RunningServe(process, port, token);
  }

  /** The address of {@code path} (e.g. {@code "/"}, {@code "/tasks/7"}) on this server. */
  String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  /** The API token {@code drover serve} wrote into its data dir: what a person logs in with. */
  String token() {
    return token;
  }

  /** GETs an API path, failing the test unless it answers 200. */
  JsonNode get(String path) {
    ApiClient.Reply r = api.get(path);
    assertThat(r.status()).as("GET " + path + ": " + r.body()).isEqualTo(200);
    return r.json();
  }

  /** POSTs JSON with the server's token, failing the test unless it answers 2xx. */
  JsonNode post(String path, String json) {
    ApiClient.Reply r = api.send(path, "POST", json, "Bearer " + token, "application/json");
    assertThat(r.status()).as("POST " + path + " " + json + ": " + r.body()).isBetween(200, 299);
    return r.json();
  }

  /** Waits until serve prints where it listens, and returns the port; fails if it exits first. */
  static int awaitPort(DroverCli.Started process, Pattern listening) throws InterruptedException {
    int[] port = new int[1];
    Wait.until(
        "drover serve to say where it listens; stderr so far:\n" + process.stderrSoFar(),
        START,
        () -> {
          Matcher m = listening.matcher(stdoutSoFar(process));
          if (m.find()) {
            port[0] = Integer.parseInt(m.group(1));
            return true;
          }
          if (!process.process().isAlive()) {
            throw new AssertionError("drover serve exited: " + process.stderrSoFar());
          }
          return false;
        });
    return port[0];
  }

  private static String stdoutSoFar(DroverCli.Started process) {
    try {
      return Files.readString(process.out(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.process().destroy();
    DroverCli.Result done = process.finish(120);
    assertThat(done.exitCode()).as(done.toString()).isZero();
  }
}
