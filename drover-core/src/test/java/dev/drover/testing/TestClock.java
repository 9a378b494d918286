package dev.drover.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until a test moves it. */
public final class TestClock extends Clock {
  private volatile Instant now;

  public TestClock(Instant start) {
    this.now = start;
  }

  public static TestClock at(String iso) {
    return new TestClock(Instant.parse(iso));
  }

  public void set(Instant t) {
    now = t;
  }

  public Instant advance(Duration d) {
    now = now.plus(d);
    return now;
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
