package dev.drover.engine;

import dev.drover.model.TaskType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the leader's visit passes ({@link VisitSchedulers}) on a thread of their own, so that a pass
 * never holds up the runner's loop. A pass on a large frontier takes a hundred milliseconds or more
 * (a grab per policy); run on the loop, it left the runner's workers without new claims for that
 * long, and a runner that runs visits at 1,000/s ran them at 910/s.
 *
 * <p>The loop asks for passes ({@link #runDue}); one runs at a time, and when it ends with news
 * (visits enqueued, or a new due time for the next) it wakes the loop. Everything the passes keep
 * in memory is touched by the pass thread alone.
 */
final class VisitSchedulingThread implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(VisitSchedulingThread.class);
  private static final long CLOSE_WAIT_SECONDS = 30;

  private final VisitSchedulers schedulers;
  private final Clock clock;
  private final Runnable wakeLoop;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "drover-visit-scheduler");
            t.setDaemon(true);
            return t;
          });
  private final AtomicBoolean running = new AtomicBoolean();

  /** When the next pass is due, as the last pass left it; {@link Instant#MIN} before the first. */
  private volatile Instant nextDue = Instant.MIN;

  /** Whether passes were asked for since the leadership was last lost (loop thread only). */
  private boolean leading;

  VisitSchedulingThread(VisitSchedulers schedulers, Clock clock, Runnable wakeLoop) {
    this.schedulers = schedulers;
    this.clock = clock;
    this.wakeLoop = wakeLoop;
  }

  /**
   * Starts the passes due at {@code now} for the visit types of {@code types}, unless passes are
   * running; with {@code runnerIdle}, also those held back by a full queue ({@link
   * VisitSchedulers#runOnce}). Called by the loop of a runner that leads.
   */
  void runDue(Instant now, List<TaskType> types, boolean runnerIdle) {
    leading = true;
    if (running.get() || (now.isBefore(nextDue) && !runnerIdle) || nothingToSchedule(types)) {
      return;
    }
    running.set(true);
    thread.execute(
        () -> {
          Instant dueBefore = nextDue;
          int created = 0;
          try {
            created = schedulers.runOnce(clock.instant(), types, runnerIdle);
          } catch (RuntimeException e) {
            log.warn("visit scheduling failed; the leader tries again: {}", e.toString());
          } finally {
            nextDue = schedulers.nextDue();
            synchronized (running) {
              running.set(false);
              // Only news wakes the loop: an idle loop asks on each turn, and waking it for a
              // pass that did nothing would have it ask again at once, forever.
              if (created > 0 || !nextDue.equals(dueBefore)) {
                wakeLoop.run();
              }
              running.notifyAll();
            }
          }
        });
  }

  /** Forgets every pass once the one running ends: this runner no longer leads. Loop thread. */
  void pause() {
    if (!leading) {
      return;
    }
    leading = false;
    thread.execute(
        () -> {
          schedulers.pause();
          nextDue = Instant.MIN;
        });
  }

  /**
   * When the loop must ask for passes next; {@link Instant#MAX} while passes run, before the first
   * (the loop asks for it on its next turn anyway) and when none is due. Never a past instant for
   * nothing: a loop told one does not sleep at all.
   */
  Instant nextDue() {
    Instant due = nextDue;
    return running.get() || due.equals(Instant.MIN) ? Instant.MAX : due;
  }

  /**
   * Waits up to {@code timeout} for a running pass to end, so that a runner that exits when idle
   * decides on what the pass enqueued; true if no pass runs.
   */
  boolean awaitPass(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (running) {
      long left;
      while (running.get() && (left = deadline - System.nanoTime()) > 0) {
        TimeUnit.NANOSECONDS.timedWait(running, left);
      }
      return !running.get();
    }
  }

  /** Lets a running pass end (up to 30 s), then stops the thread. */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (!thread.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * No type runs visits, and no visit type is left from earlier passes to forget: no need for a
   * pass (nor for the thread, which starts with the first).
   */
  private boolean nothingToSchedule(List<TaskType> types) {
    return (nextDue.equals(Instant.MIN) || nextDue.equals(Instant.MAX))
        && types.stream().noneMatch(t -> VisitSchedulers.visitTypeOf(t.name()) != null);
  }
}
