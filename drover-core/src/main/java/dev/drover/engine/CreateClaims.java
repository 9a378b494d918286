package dev.drover.engine;

import dev.drover.model.TaskType;
import dev.drover.store.Claim;
import dev.drover.store.CreateClaimer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * The runner's side of claiming on create ({@link CreateClaimer}): how many tasks of each type it
 * can take as they are created, and the claims handed over by creates that committed, until the
 * loop adopts them into its book.
 *
 * <p>The loop sets the room after each dispatch: a type's worker slots still free once each of its
 * queued runs has a worker, for types without a per-key limit (their claims go through the per-key
 * count). A create takes one unit of room for its offer and gives it back if it claims nothing or
 * fails; an offer made just before the loop sets the room again may leave one run queued more than
 * the slots allow, which a worker begins once a slot frees, as any run claimed ahead. Nothing is
 * offered once the runner is asked to stop.
 */
final class CreateClaims implements CreateClaimer {
  private final String owner;
  private final Runnable wake;
  private volatile Map<String, Room> rooms = Map.of();
  private final Queue<HeldRun> handed = new ConcurrentLinkedQueue<>();

  /** Offers made and not yet taken or withdrawn: the loop does not exit while any is open. */
  private final AtomicInteger open = new AtomicInteger();

  private volatile boolean closed;

  /**
   * @param wake wakes the loop to adopt a claim handed over
   */
  CreateClaims(String owner, Runnable wake) {
    this.owner = owner;
    this.wake = wake;
  }

  /** A type's room, and the type as the runner knows it (its lease). */
  private record Room(TaskType type, AtomicInteger free) {}

  @Override
  public Offer offer(String typeName, Instant now) {
    Room room = rooms.get(typeName);
    if (room == null) {
      return null;
    }
    open.incrementAndGet(); // before the check of closed: see settled()
    if (closed || !takeOne(room.free())) {
      open.decrementAndGet();
      return null;
    }
    // In milliseconds, as the store keeps it: the claim in memory is the row as written.
    Instant leaseUntil = now.plus(room.type().lease()).truncatedTo(ChronoUnit.MILLIS);
    return new Offer() {
      @Override
      public String owner() {
        return owner;
      }

      @Override
      public Instant leaseUntil() {
        return leaseUntil;
      }

      @Override
      public void taken(Claim claim) {
        handed.add(new HeldRun(claim, room.type(), now));
        open.decrementAndGet();
        wake.run();
      }

      @Override
      public void withdrawn() {
        room.free().incrementAndGet();
        open.decrementAndGet();
      }
    };
  }

  private static boolean takeOne(AtomicInteger free) {
    int n;
    do {
      n = free.get();
      if (n <= 0) {
        return false;
      }
    } while (!free.compareAndSet(n, n - 1));
    return true;
  }

  /** The claims handed over since the last call, committed; loop thread. */
  List<HeldRun> adopt() {
    List<HeldRun> runs = new ArrayList<>();
    for (HeldRun r; (r = handed.poll()) != null; ) {
      runs.add(r);
    }
    return runs;
  }

  /** Whether a claim was handed over and not adopted yet. */
  boolean handedOver() {
    return !handed.isEmpty();
  }

  /**
   * Sets the room of each of {@code executable} that has no per-key limit to {@code room} of it
   * (never below zero); the other types get none. Loop thread.
   */
  void setRoom(Collection<TaskType> executable, ToIntFunction<TaskType> room) {
    if (closed) {
      return;
    }
    Map<String, Room> next = new HashMap<>();
    for (TaskType type : executable) {
      if (type.maxPerKey() == null) {
        next.put(
            type.name(), new Room(type, new AtomicInteger(Math.max(0, room.applyAsInt(type)))));
      }
    }
    rooms = Map.copyOf(next);
  }

  /** Offers nothing more, from now on (the runner is stopping). */
  void close() {
    closed = true;
    rooms = Map.of();
  }

  /** True once no offer is open and every claim handed over was adopted: the loop may exit. */
  boolean settled() {
    return open.get() == 0 && handed.isEmpty();
  }
}
