package dev.drover.engine;

import dev.drover.model.TaskRunStatus;
import java.util.concurrent.atomic.AtomicLong;

/** What a runner did: counters safe to read from any thread. */
public final class RunnerStats {
  final AtomicLong claimed = new AtomicLong();
  final AtomicLong eventful = new AtomicLong();
  final AtomicLong uneventful = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  final AtomicLong rescued = new AtomicLong();
  final AtomicLong leasesLost = new AtomicLong();
  final AtomicLong released = new AtomicLong();
  final AtomicLong passes = new AtomicLong();
  final AtomicLong passNanos = new AtomicLong();
  private final AtomicLong visitPasses = new AtomicLong();
  private final AtomicLong visitPassNanos = new AtomicLong();
  private final AtomicLong visitPassCpuNanos = new AtomicLong();

  void count(TaskRunStatus status) {
    switch (status) {
      case EVENTFUL -> eventful.incrementAndGet();
      case UNEVENTFUL -> uneventful.incrementAndGet();
      default -> failed.incrementAndGet();
    }
  }

  public long claimed() {
    return claimed.get();
  }

  public long eventful() {
    return eventful.get();
  }

  public long uneventful() {
    return uneventful.get();
  }

  /** Runs that ended failed or permfailed. */
  public long failed() {
    return failed.get();
  }

  public long rescued() {
    return rescued.get();
  }

  public long leasesLost() {
    return leasesLost.get();
  }

  public long released() {
    return released.get();
  }

  /** Pass transactions committed (those that wrote or claimed something). */
  public long passes() {
    return passes.get();
  }

  /** Seconds spent in the pass transactions counted by {@link #passes()}, in all. */
  public double passSeconds() {
    return passNanos.get() / 1e9;
  }

  void countVisitPass(long wallNanos, long cpuNanos) {
    visitPasses.incrementAndGet();
    visitPassNanos.addAndGet(wallNanos);
    visitPassCpuNanos.addAndGet(cpuNanos);
  }

  /** Visit scheduling passes this runner ran as the leader, of every visit type. */
  public long visitPasses() {
    return visitPasses.get();
  }

  /** Seconds the passes counted by {@link #visitPasses()} took, in all. */
  public double visitPassSeconds() {
    return visitPassNanos.get() / 1e9;
  }

  /**
   * CPU seconds the runner's loop thread spent in those passes: this process's share of their cost;
   * the database's share is its own.
   */
  public double visitPassCpuSeconds() {
    return visitPassCpuNanos.get() / 1e9;
  }

  /** The counters by name, for JSON and the event log. */
  public java.util.Map<String, Long> asMap() {
    java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
    m.put("claimed", claimed());
    m.put("eventful", eventful());
    m.put("uneventful", uneventful());
    m.put("failed", failed());
    m.put("rescued", rescued());
    m.put("leases_lost", leasesLost());
    m.put("released", released());
    return m;
  }

  @Override
  public String toString() {
    return "claimed "
        + claimed
        + ", eventful "
        + eventful
        + ", uneventful "
        + uneventful
        + ", failed "
        + failed
        + ", rescued "
        + rescued
        + ", leases lost "
        + leasesLost
        + ", released "
        + released;
  }
}
