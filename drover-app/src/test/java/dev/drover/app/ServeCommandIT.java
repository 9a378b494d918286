package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.app.http.ApiToken;
import dev.drover.testing.Wait;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover serve} as a person runs it (the jar): it listens on a free loopback port, writes a
 * private token, runs what the API enqueues, and gives way to a newer {@code serve} on the same
 * data dir; listening beyond loopback without a token of one's own is refused.
 */
class ServeCommandIT {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Pattern LISTENING = RunningServe.LISTENING;

  @TempDir Path tmp;

  @Test
  void servesRunsWhatTheApiEnqueuesAndGivesWayToANewerServe() throws Exception {
    DroverCli cli = DroverCli.jar(tmp);
    cli.run("init").ok();
    cli.run("config", "apply", Fixtures.write(tmp.resolve("drover.yaml"), Fixtures.CONFIG)).ok();

    DroverCli.Started first = cli.start("serve", "--listen", "127.0.0.1:0");
    int port = awaitPort(first);
    Path tokenFile = tmp.resolve("drover-data").resolve(ApiToken.FILE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
        .isEqualTo("rw-------");
    String token = Files.readString(tokenFile).trim();

    ApiClient api = new ApiClient(port);
    String task = "{\"type\": \"check\", \"policy\": \"oneshot\", \"args\": [\"" + tmp + "\"]}";
    ApiClient.Reply created =
        api.send("/api/v1/tasks", "POST", task, "Bearer " + token, "application/json");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    long id = created.json().get("id").asLong();
    Wait.until(
        "the runner of serve to run task " + id,
        START,
        () -> api.get("/api/v1/tasks/" + id).json().get("status").asText().equals("completed"));

    // A newer serve takes the data dir over: the first stops, server and all, and exits 0.
    DroverCli.Started second = cli.start("serve", "--listen", "127.0.0.1:0");
    int secondPort = awaitPort(second);
    DroverCli.Result firstDone = first.finish(120);
    assertThat(firstDone.exitCode()).as(firstDone.toString()).isZero();
    assertThat(new ApiClient(secondPort).get("/api/v1/status").status()).isEqualTo(200);

    // A foreground 'drover run' goes through the same gate: it takes over from serve, which stops.
    DroverCli.Result run = cli.run("run");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    DroverCli.Result secondDone = second.finish(120);
    assertThat(secondDone.exitCode()).as(secondDone.toString()).isZero();
    assertThat(secondDone.stderr()).contains("runner stopped");

    // And SIGTERM stops a serve gracefully, with exit code 0.
    DroverCli.Started third = cli.start("serve", "--listen", "127.0.0.1:0");
    awaitPort(third);
    third.process().destroy();
    DroverCli.Result thirdDone = third.finish(120);
    assertThat(thirdDone.exitCode()).as(thirdDone.toString()).isZero();
    assertThat(
            firstDone.stdout()
                + firstDone.stderr()
                + secondDone.stdout()
                + secondDone.stderr()
                + thirdDone.stdout()
                + thirdDone.stderr())
        .doesNotContain(token);
  }

  @Test
  void refusesToListenBeyondLoopbackWithoutATokenOfItsOwn() {
    DroverCli cli = DroverCli.in(tmp);
    cli.run("init").ok();
    DroverCli.Result r = cli.run("serve", "--listen", "0.0.0.0:0");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderrLines()).hasSize(1);
    assertThat(r.stderr()).contains("--listen", "DROVER_API_TOKEN");
    assertThat(cli.run("serve", "--listen", "localhost").exitCode()).isEqualTo(2);
    assertThat(Files.exists(tmp.resolve("drover-data").resolve(ApiToken.FILE))).isFalse();
    // Bad input keeps its exit code 2 through the jar, signal hook or not.
    DroverCli.Result noStore =
        DroverCli.jar(tmp)
            .run("--data-dir", "nowhere", "serve", "--no-runner", "--listen", "127.0.0.1:0");
    assertThat(noStore.exitCode()).as(noStore.toString()).isEqualTo(2);
    DroverCli.Result noStoreRunner =
        DroverCli.jar(tmp).run("--data-dir", "nowhere", "serve", "--listen", "127.0.0.1:0");
    assertThat(noStoreRunner.exitCode()).as(noStoreRunner.toString()).isEqualTo(2);
  }

  @Test
  void listensBeyondLoopbackWithATokenOfItsOwnAndAsksForThatToken() throws Exception {
    DroverCli cli = DroverCli.jar(tmp).env(ApiToken.ENV, "a-token-of-our-own");
    cli.run("init").ok();
    DroverCli.Started serve = cli.start("serve", "--no-runner", "--listen", "0.0.0.0:0");
    try {
      int port = awaitPort(serve, Pattern.compile("listening on http://0.0.0.0:(\\d+)"));
      ApiClient api = new ApiClient(port);
      String type = "{\"name\": \"t\", \"command\": [\"true\"]}";
      assertThat(
              api.send("/api/v1/task-types", "POST", type, "Bearer nope", "application/json")
                  .status())
          .isEqualTo(403);
      assertThat(
              api.send(
                      "/api/v1/task-types",
                      "POST",
                      type,
                      "Bearer a-token-of-our-own",
                      "application/json")
                  .status())
          .isEqualTo(201);
      assertThat(Files.exists(tmp.resolve("drover-data").resolve(ApiToken.FILE))).isFalse();
    } finally {
      serve.process().destroy();
    }
    DroverCli.Result done = serve.finish(120);
    assertThat(done.exitCode()).as(done.toString()).isZero();
  }

  /** The port a started {@code drover serve} says it listens on, once it says so. */
  static int awaitPort(DroverCli.Started process) throws InterruptedException {
    return RunningServe.awaitPort(process, LISTENING);
  }

  private static int awaitPort(DroverCli.Started process, Pattern listening)
      throws InterruptedException {
    return RunningServe.awaitPort(process, listening);
  }
}
