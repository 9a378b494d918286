package dev.drover.bench;

import static dev.drover.bench.SmokeRuns.onPath;
import static dev.drover.bench.SmokeRuns.smokeRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * graphile-worker's smoke run beside Drover's, which spends most of its time waiting for the
 * Node.js process it starts for each workload. A class of its own (see {@link
 * SmokeRuns#WAITING_PEERS}), so that one of the build's test JVMs waits while the others compute.
 *
 * <p>graphile-worker needs Node.js and npm on the PATH: .ci/run installs them, and on a machine
 * without them this test is reported skipped.
 */
class GraphileWorkerSmokeTest {
  @Test
  void graphileWorkerSmokeRunNextToDrover(@TempDir Path out) throws Exception {
    assumeTrue(onPath("node") && onPath("npm"), "graphile-worker needs node and npm on the PATH");
    smokeRun(out, List.of("drover", GraphileWorkerSystem.NAME));
    assertThat(Files.readString(out.resolve(Report.MARKDOWN)))
        .contains("| graphile-worker | postgres |")
        .doesNotContain("failed");
  }
}
