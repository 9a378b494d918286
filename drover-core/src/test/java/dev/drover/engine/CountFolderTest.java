package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.model.NewTask;
import dev.drover.model.StatusCount;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskStatus;
import dev.drover.model.TaskType;
import dev.drover.store.Store;
import dev.drover.store.StoreLocation;
import dev.drover.store.StoreOptions;
import dev.drover.store.StoreProbe;
import dev.drover.store.Stores;
import dev.drover.testing.FaultProbe;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leader's fold of the status counts: a fold the store fails leaves the folder due at once (its
 * next time moves only after a fold committed), and the counts read the same before and after.
 */
class CountFolderTest {
  @TempDir Path tmp;

  @Test
  void aFailedFoldIsTriedAgainAtOnceAndAFoldedOneWaitsItsInterval() {
    FaultProbe probe = new FaultProbe("taskCountCompact", Set.of(1), Set.of());
    AtomicInteger folds = new AtomicInteger();
    try (Store store =
        Stores.open(
            StoreLocation.dataDir(tmp), StoreOptions.DEFAULT.withProbe(counting(probe, folds)))) {
      store.taskTypeCreate(TaskType.builder("a").build());
      store.taskCreate(
          List.of(NewTask.oneshot("a", TaskArguments.of(List.of(1), null))), Instant.now());
      List<StatusCount> before = store.taskCountByTypeAndStatus();
      CountFolder folder = new CountFolder(store);
      Instant now = Instant.parse("2026-03-01T12:00:00Z");

      assertThatThrownBy(() -> folder.runOnce(now)).isInstanceOf(FaultProbe.InjectedFault.class);
      folder.runOnce(now);
      assertThat(folds.get()).as("tried again at once after the failure").isEqualTo(2);
      folder.runOnce(now.plus(CountFolder.INTERVAL).minusMillis(1));
      assertThat(folds.get()).as("not again within its interval").isEqualTo(2);
      folder.runOnce(now.plus(CountFolder.INTERVAL));
      assertThat(folds.get()).isEqualTo(3);

      assertThat(store.taskCountByTypeAndStatus())
          .isEqualTo(before)
          .containsExactly(new StatusCount("a", TaskStatus.NEXT_RUN_NOT_SCHEDULED, 1));
    }
  }

  /** {@code probe}, counting the folds it sees, failed or not. */
  private static StoreProbe counting(FaultProbe probe, AtomicInteger folds) {
    return new StoreProbe() {
      @Override
      public void beforeStatement(String queryName) {
        if (queryName.startsWith("taskCountCompact")) {
          folds.incrementAndGet();
        }
        probe.beforeStatement(queryName);
      }

      @Override
      public void beforeCommit() {
        probe.beforeCommit();
      }
    };
  }
}
