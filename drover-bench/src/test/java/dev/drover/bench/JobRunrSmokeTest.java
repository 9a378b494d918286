package dev.drover.bench;

import static dev.drover.bench.SmokeRuns.smokeRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JobRunr's smoke run, which spends most of its time waiting for JobRunr's poll (five seconds at
 * the least) before every workload's first job. A class of its own (see {@link
 * SmokeRuns#WAITING_PEERS}), so that one of the build's test JVMs waits while the others compute.
 */
class JobRunrSmokeTest {
  @Test
  void jobRunrSmokeRunGivesAFigurePerDatabaseAndWorkload(@TempDir Path out) throws Exception {
    assertThat(smokeRun(out, List.of(JobRunrSystem.NAME)))
        .contains("jobrunr/sqlite/sustained", "jobrunr/postgres/dbcost");
    assertThat(Files.readString(out.resolve(Report.MARKDOWN)))
        .contains("| jobrunr | postgres |", "| jobrunr | sqlite |", "pollInterval")
        .doesNotContain("failed");
  }
}
