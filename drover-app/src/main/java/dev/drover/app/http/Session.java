package dev.drover.app.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One logged-in browser: its id (the cookie's value, random, never the API token), the CSRF token
 * its control forms carry, when it ends, and the one-line message its next page shows once.
 */
final class Session {
  private final String id;
  private final String csrf;
  private final Instant expires;
  private final AtomicReference<String> flash = new AtomicReference<>();

  Session(String id, String csrf, Instant expires) {
    this.id = id;
    this.csrf = csrf;
    this.expires = expires;
  }

  String id() {
    return id;
  }

  /** The synchronizer token every control form of this session sends back. */
  String csrf() {
    return csrf;
  }

  Instant expires() {
    return expires;
  }

  boolean expiredAt(Instant now) {
    return !now.isBefore(expires);
  }

  /** True if {@code presented} is this session's CSRF token; compared in constant time. */
  boolean csrfMatches(String presented) {
    return presented != null
        && MessageDigest.isEqual(
            csrf.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
  }

  /** Leaves a message for the next page this session shows. */
  void flash(String message) {
    flash.set(message);
  }

  /** The message left for this page, or null; it is shown once. */
  String takeFlash() {
    return flash.getAndSet(null);
  }
}
