package dev.drover.app.http;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The dashboard's logins, in memory (a restart logs everyone out). A browser that gave the API
 * token at {@code /login} gets a cookie holding a random session id, HttpOnly and SameSite=Strict;
 * its CSRF token is an HMAC of that id under a key made at start, so it is bound to the session and
 * unknown to anyone without the key.
 */
final class Sessions {
  static final String COOKIE = "drover_session";
  static final Duration LIFETIME = Duration.ofHours(12);

  /** Most sessions kept; the oldest goes when a new one would pass it. */
  static final int MAX = 1000;

  private static final String ATTRIBUTE = "drover.session";

  private final SecureRandom random = new SecureRandom();
  private final byte[] key = new byte[32];
  private final Map<String, Session> live = new ConcurrentHashMap<>();

  Sessions() {
    random.nextBytes(key);
  }

  /** Starts a session for this browser and sets its cookie. */
  Session open(Context ctx) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String id = HexFormat.of().formatHex(bytes);
    Session session = new Session(id, hmac(id), Instant.now().plus(LIFETIME));
    if (live.size() >= MAX) {
      live.values().stream().min(Comparator.comparing(Session::expires)).ifPresent(this::forget);
    }
    live.put(id, session);
    cookie(ctx, id, LIFETIME.toSeconds());
    ctx.attribute(ATTRIBUTE, session);
    return session;
  }

  /** This browser's session, if its cookie names a live one. */
  Optional<Session> current(Context ctx) {
    Session known = ctx.attribute(ATTRIBUTE);
    if (known != null) {
      return Optional.of(known);
    }
    String id = ctx.cookie(COOKIE);
    Session session = id == null ? null : live.get(id);
    if (session == null) {
      return Optional.empty();
    }
    if (session.expiredAt(Instant.now())) {
      forget(session);
      return Optional.empty();
    }
    ctx.attribute(ATTRIBUTE, session);
    return Optional.of(session);
  }

  /** Ends this browser's session, if any, and clears its cookie. */
  void close(Context ctx) {
    current(ctx).ifPresent(this::forget);
    ctx.attribute(ATTRIBUTE, null);
    cookie(ctx, "", 0);
  }

  private void forget(Session session) {
    live.remove(session.id());
  }

  // Secure only over HTTPS: on plain http://127.0.0.1 a browser would drop a Secure cookie.
  private static void cookie(Context ctx, String value, long maxAgeSeconds) {
    ctx.res()
        .addHeader(
            "Set-Cookie",
            COOKIE
                + "="
                + value
                + "; Path=/; Max-Age="
                + maxAgeSeconds
                + "; HttpOnly; SameSite=Strict"
                + ("https".equals(ctx.scheme()) ? "; Secure" : ""));
  }

  private String hmac(String id) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(("csrf:" + id).getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }
}
