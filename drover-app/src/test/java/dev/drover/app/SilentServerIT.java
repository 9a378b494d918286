package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that accepts connections but never answers (a hung PostgreSQL, a wrong port behind a
 * proxy) makes a command fail after the login timeout, naming where, instead of hanging.
 */
class SilentServerIT {
  @TempDir Path tmp;

  @Test
  void aServerThatNeverAnswersFailsTheCommandNamingTheHost() throws Exception {
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0)) {
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept()); // accepted, never answered
                  }
                } catch (Exception closed) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      String url = "jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/drover";

      DroverCli.Result r = DroverCli.in(tmp).run("--db", url, "status");

      assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
      assertThat(r.stderr()).contains("127.0.0.1:" + silent.getLocalPort());
      assertThat(r.stderr().strip().lines()).as(r.stderr()).hasSize(1);
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }
}
