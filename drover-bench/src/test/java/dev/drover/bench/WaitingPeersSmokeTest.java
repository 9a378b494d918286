package dev.drover.bench;

import static dev.drover.bench.SmokeRuns.onPath;
import static dev.drover.bench.SmokeRuns.smokeRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smoke run of the two peers that spend it waiting rather than computing: JobRunr waits for its
 * poll (five seconds at the least) before every workload's first job, and graphile-worker starts a
 * Node.js process for each workload. In a class of their own, one of the build's test JVMs runs
 * them while another runs {@link BenchSmokeTest}, which covers every other system.
 *
 * <p>graphile-worker needs Node.js and npm on the PATH: .ci/run installs them, and on a machine
 * without them its test is reported skipped.
 */
class WaitingPeersSmokeTest {
  static final Set<String> SYSTEMS = Set.of(JobRunrSystem.NAME, GraphileWorkerSystem.NAME);

  @Test
  void jobRunrSmokeRunGivesAFigurePerDatabaseAndWorkload(@TempDir Path out) throws Exception {
    assertThat(smokeRun(out, List.of(JobRunrSystem.NAME)))
        .contains("jobrunr/sqlite/sustained", "jobrunr/postgres/dbcost");
    assertThat(Files.readString(out.resolve(Report.MARKDOWN)))
        .contains("| jobrunr | postgres |", "| jobrunr | sqlite |", "pollInterval")
        .doesNotContain("failed");
  }

  @Test
  void graphileWorkerSmokeRunNextToDrover(@TempDir Path out) throws Exception {
    assumeTrue(onPath("node") && onPath("npm"), "graphile-worker needs node and npm on the PATH");
    smokeRun(out, List.of("drover", GraphileWorkerSystem.NAME));
    assertThat(Files.readString(out.resolve(Report.MARKDOWN)))
        .contains("| graphile-worker | postgres |")
        .doesNotContain("failed");
  }
}
