package dev.drover.bench;

/**
 * The no-op job JobRunr runs. JobRunr stores a job as a class, a static method and its arguments,
 * so the probe of the current run is reached through a static field.
 */
public final class JobRunrNoop {
  static volatile SystemUnderTest.Probe probe;

  private JobRunrNoop() {}

  /** Reports the start of job {@code seq}; public because JobRunr calls it by reflection. */
  public static void run(Long seq) {
    probe.started(seq);
  }
}
