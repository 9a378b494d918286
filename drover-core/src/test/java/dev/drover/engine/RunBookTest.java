package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Outcome;
import dev.drover.engine.Signals.Finished;
import dev.drover.model.TaskType;
import dev.drover.store.Completion;
import dev.drover.store.RunStarted;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the runner's book hands a pass to write: the starts of runs, and the ends. */
class RunBookTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final TaskType JOB = TaskType.builder("job").lease(Duration.ofMinutes(2)).build();

  private final RunBook book = new RunBook();

  private static HeldRun held(long id) {
    return new HeldRun(QueuedClaims.of(id, JOB.name(), NOW.plus(JOB.lease()), NOW), JOB, NOW);
  }

  @Test
  void aStartIsWrittenOnlyForARunStillExecutingAndAnEndedRunsStartGoesWithItsEnd() {
    HeldRun queued = held(1);
    HeldRun executing = held(2);
    HeldRun endedUntaken = held(3);
    book.claimed(List.of(queued, executing, endedUntaken));
    Instant began = NOW.plusMillis(5);
    assertThat(executing.begin(Thread.currentThread(), began)).isTrue();
    assertThat(endedUntaken.begin(Thread.currentThread(), began)).isTrue();
    endedUntaken.end(began.plusMillis(1)); // its worker ended it; the loop has not taken it yet

    assertThat(book.startsToWrite())
        .as("neither the queued run nor the one that ended, only the one executing")
        .extracting(RunStarted::claim)
        .containsExactly(executing.claim);
    assertThat(book.completionsToWrite()).as("no outcome taken yet").isEmpty();

    book.take(List.of(new Finished(endedUntaken, Outcome.eventful())));
    assertThat(book.completionsToWrite())
        .as("the ended run's end, with its start")
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.lease()).isEqualTo(endedUntaken.lease());
              assertThat(c.started()).isEqualTo(began);
            });
    assertThat(book.startsToWrite()).extracting(RunStarted::claim).containsExactly(executing.claim);
  }

  @Test
  void anEndAfterItsWrittenStartDoesNotCarryTheStartAgain() {
    HeldRun run = held(1);
    book.claimed(List.of(run));
    assertThat(run.begin(Thread.currentThread(), NOW)).isTrue();
    book.startsWritten(book.startsToWrite());
    assertThat(book.startsToWrite()).as("written once").isEmpty();

    run.end(NOW.plusSeconds(1));
    book.take(List.of(new Finished(run, Outcome.eventful())));
    assertThat(book.completionsToWrite())
        .extracting(Completion::started)
        .as("the start is in the database already")
        .containsExactly((Instant) null);
  }
}
