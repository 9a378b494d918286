package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.engine.Signals.Finished;
import dev.drover.engine.Signals.HandOver;
import dev.drover.engine.Signals.SlotFreed;
import org.junit.jupiter.api.Test;

/**
 * The loop's queue of signals: hand-overs alone need no pass, and taking them never takes a
 * worker's signal with them (lost, a task's end would never be written, or a slot never freed).
 */
class SignalsTest {
  private final Signals signals = new Signals();

  @Test
  void handOversAloneAreTakenAndLeaveNothing() throws Exception {
    assertThat(signals.takeOnlyHandOvers()).as("nothing signalled").isFalse();
    signals.handOver();
    signals.await(0); // the loop woke on the first
    signals.handOver();
    assertThat(signals.takeOnlyHandOvers()).isTrue();
    assertThat(signals.isEmpty()).isTrue();
  }

  @Test
  void handOversAmongWorkersSignalsAreLeftForAPass() throws Exception {
    signals.handOver();
    signals.await(0);
    signals.finished(null, null);
    signals.handOver();
    signals.slotFreed("job");
    assertThat(signals.takeOnlyHandOvers()).isFalse();
    assertThat(signals.drain())
        .hasExactlyElementsOfTypes(HandOver.class, Finished.class, HandOver.class, SlotFreed.class);
  }

  @Test
  void aWorkersSignalAwaitedFirstIsLeftForAPass() throws Exception {
    signals.slotFreed("job");
    signals.await(0);
    signals.handOver();
    assertThat(signals.takeOnlyHandOvers()).isFalse();
    assertThat(signals.drain()).hasExactlyElementsOfTypes(SlotFreed.class, HandOver.class);
  }
}
