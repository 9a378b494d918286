package dev.drover.model;

import java.util.Locale;

/** Where a runner process stands at its gate. */
public enum RunnerState implements Named {
  /** Claiming and executing work; at most one per gate. */
  ACTIVE,
  /** Registered, waiting for the active runner of its gate to leave (a takeover or a standby). */
  WAITING;

  @Override
  public String dbName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static RunnerState parse(String field, String text) {
    return Named.parse(RunnerState.class, field, text);
  }
}
