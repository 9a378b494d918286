package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.model.TaskType;
import dev.drover.store.Claim;
import dev.drover.store.CreateClaimer.Offer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The runner's room for tasks claimed as they are created, and the claims handed over. */
class CreateClaimsTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final TaskType JOB = TaskType.builder("job").lease(Duration.ofMinutes(2)).build();
  private static final TaskType KEYED = TaskType.builder("keyed").perKeyLimit("owner", 1).build();

  private final AtomicInteger wakes = new AtomicInteger();
  private final CreateClaims claims = new CreateClaims("runner-a", wakes::incrementAndGet);

  private void room(int jobs) {
    claims.setRoom(List.of(JOB, KEYED), t -> Map.of("job", jobs, "keyed", 5).get(t.name()));
  }

  private static Claim claimOf(long id, Offer offer) {
    return QueuedClaims.of(id, "job", offer.leaseUntil(), NOW);
  }

  @Test
  void offersAsManySlotsAsTheRoomAndGetsThemBackWhenWithdrawn() {
    assertThat(claims.offer("job", NOW)).as("before the loop sets any room").isNull();
    room(2);
    Offer a = claims.offer("job", NOW);
    Offer b = claims.offer("job", NOW);
    assertThat(a).isNotNull();
    assertThat(b).isNotNull();
    assertThat(a.owner()).isEqualTo("runner-a");
    assertThat(a.leaseUntil()).isEqualTo(NOW.plus(Duration.ofMinutes(2)));
    assertThat(claims.offer("job", NOW)).as("no room left").isNull();
    a.withdrawn();
    assertThat(claims.offer("job", NOW)).as("the slot given back").isNotNull();
    assertThat(claims.offer("keyed", NOW)).as("a type with a per-key limit").isNull();
    assertThat(claims.offer("other", NOW)).as("a type this runner does not run").isNull();
  }

  @Test
  void aTakenOfferIsAdoptedOnceAndTheRunnerSettlesOnlyThen() {
    room(1);
    Offer offer = claims.offer("job", NOW);
    assertThat(claims.settled()).as("an offer is open").isFalse();
    Claim claim = claimOf(7, offer);
    offer.taken(claim);
    assertThat(wakes).as("the loop woken").hasValue(1);
    assertThat(claims.settled()).as("handed over, not adopted").isFalse();
    List<HeldRun> adopted = claims.adopt();
    assertThat(adopted).extracting(r -> r.claim).containsExactly(claim);
    assertThat(adopted.get(0).type).isEqualTo(JOB);
    assertThat(claims.adopt()).isEmpty();
    assertThat(claims.settled()).isTrue();
  }

  @Test
  void aClosedRunnerOffersNothingAndKeepsNoRoom() {
    room(3);
    Offer open = claims.offer("job", NOW);
    claims.close();
    assertThat(claims.offer("job", NOW)).isNull();
    room(3);
    assertThat(claims.offer("job", NOW)).as("room set after the close").isNull();
    assertThat(claims.settled()).as("the offer made before the close is open").isFalse();
    open.withdrawn();
    assertThat(claims.settled()).isTrue();
  }

  @Test
  void creatorsRacingForTheRoomNeverGetMoreThanIt() throws Exception {
    room(5);
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<List<Offer>>> got = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        got.add(
            pool.submit(
                () -> {
                  start.await();
                  List<Offer> mine = new ArrayList<>();
                  for (int i = 0; i < 1_000; i++) {
                    Offer o = claims.offer("job", NOW);
                    if (o != null) {
                      mine.add(o);
                    }
                  }
                  return mine;
                }));
      }
      start.countDown();
      List<Offer> all = new ArrayList<>();
      for (Future<List<Offer>> f : got) {
        all.addAll(f.get(30, TimeUnit.SECONDS));
      }
      assertThat(all).hasSize(5);
      all.forEach(Offer::withdrawn);
      assertThat(claims.settled()).isTrue();
      assertThat(claims.offer("job", NOW)).as("all five back").isNotNull();
    } finally {
      pool.shutdownNow();
    }
  }
}
